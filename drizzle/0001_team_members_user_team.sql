DROP INDEX `team_members_user`;--> statement-breakpoint
CREATE INDEX `team_members_user` ON `team_members` (`user_id`,`team_id`);
CREATE TABLE `audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`team_id` integer NOT NULL,
	`actor_kind` text NOT NULL,
	`actor_pk` integer,
	`action` text NOT NULL,
	`player_id` integer,
	`request_id` text
);
--> statement-breakpoint
CREATE INDEX `audit_team` ON `audit` (`team_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_team_player` ON `audit` (`team_id`,`player_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_at` ON `audit` (`at`);--> statement-breakpoint
ALTER TABLE `players` ADD `consent` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `players` ADD `consent_updated_at` integer;--> statement-breakpoint
ALTER TABLE `teams` ADD `require_consent` integer DEFAULT false NOT NULL;
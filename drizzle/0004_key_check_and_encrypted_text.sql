CREATE TABLE `hoot_meta` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `conversation_messages` ADD `text_enc` blob;
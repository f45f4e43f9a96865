CREATE TABLE `operator_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_keys_name_unique` ON `operator_keys` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `operator_keys_key_hash_unique` ON `operator_keys` (`key_hash`);
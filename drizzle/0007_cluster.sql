CREATE TABLE `login_failures` (
	`bucket` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`failures` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `socket_leases` (
	`id` text PRIMARY KEY NOT NULL,
	`player_id` integer NOT NULL,
	`node_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `socket_leases_player` ON `socket_leases` (`player_id`,`expires_at`);--> statement-breakpoint
CREATE INDEX `socket_leases_node` ON `socket_leases` (`node_id`);
CREATE TABLE "login_failures" (
	"bucket" text PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"failures" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "socket_leases" (
	"id" text PRIMARY KEY NOT NULL,
	"player_id" integer NOT NULL,
	"node_id" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "socket_leases_player" ON "socket_leases" USING btree ("player_id","expires_at");--> statement-breakpoint
CREATE INDEX "socket_leases_node" ON "socket_leases" USING btree ("node_id");
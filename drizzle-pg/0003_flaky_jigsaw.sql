ALTER TABLE "safety_incidents" ADD COLUMN "repeats" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "safety_incidents_created" ON "safety_incidents" USING btree ("created_at");
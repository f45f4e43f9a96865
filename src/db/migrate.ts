/**
 * Applies the drizzle-kit migrations embedded at build time (see scripts/embed-migrations.ts) through
 * drizzle's own dialect migrator, so the bookkeeping table is the one drizzle-kit expects.
 */
import { createHash } from "node:crypto";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { migrations } from "./migrations.gen.ts";

export type { EmbeddedMigration } from "./embedded-migration.ts";

/** Brings the database up to the newest embedded migration; safe to run on every start. */
export function migrateDatabase(db: BunSQLiteDatabase<Record<string, unknown>>): void {
  const metas: MigrationMeta[] = migrations.map((m) => ({
    sql: m.sql.split("--> statement-breakpoint"),
    bps: m.breakpoints,
    folderMillis: m.when,
    hash: createHash("sha256").update(m.sql).digest("hex"),
  }));
  // drizzle's dialect migrator is public but not in its type surface for every driver.
  const runner = db as unknown as {
    dialect: { migrate(m: MigrationMeta[], session: unknown, config: { migrationsFolder: string }): void };
    session: unknown;
  };
  runner.dialect.migrate(metas, runner.session, { migrationsFolder: "embedded" });
}

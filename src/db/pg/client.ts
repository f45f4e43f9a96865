/**
 * PostgreSQL through drizzle's `drizzle-orm/bun-sql` driver over Bun's built-in client (`Bun.SQL`: a pool of
 * connections, named prepared statements cached per connection). Opening it connects, migrates under an
 * advisory lock (N nodes starting at once migrate once: the others wait for the lock, then find nothing left
 * to do), and returns the pool.
 *
 * Every connection carries `lock_timeout` = HOOT_DB_LOCK_TIMEOUT_MS, so a write that waits for a row lock
 * longer than that fails with a busy error (503 `database_busy`) instead of waiting without end, and
 * `application_name` = hoot, so `pg_stat_activity` says who is connected.
 */

import { createHash } from "node:crypto";
import { SQL } from "bun";
import { type BunSQLDatabase, drizzle } from "drizzle-orm/bun-sql";
import type { MigrationMeta } from "drizzle-orm/migrator";
import type { EmbeddedMigration } from "../embedded-migration.ts";
import { migrations as embedded } from "./migrations.gen.ts";

/** drizzle over a Bun.SQL client: the pool, a transaction, or a savepoint. */
export type PgDb = BunSQLDatabase & { $client: SQL };

export interface PgOptions {
  /** Connections in the pool. */
  poolSize: number;
  /** How long a statement waits for a row lock, ms (PostgreSQL's lock_timeout). */
  lockTimeoutMs: number;
  /** Connecting gives up after this many seconds. */
  connectTimeoutSeconds?: number;
}

/** A pool for `url` (connections open on first use). */
export function createPool(url: string, options: PgOptions): SQL {
  return new SQL({
    url,
    max: options.poolSize,
    connectionTimeout: options.connectTimeoutSeconds ?? 10,
    // Idle connections close after a while, so a quiet node does not hold its whole pool open forever.
    idleTimeout: 60,
    connection: { lock_timeout: options.lockTimeoutMs, application_name: "hoot" },
  });
}

/** drizzle over a client (the pool, or a transaction's client). */
export function pgDb(client: SQL): PgDb {
  return drizzle({ client });
}

// pg_advisory_lock(int, int): one fixed key for "hoot migrations" ("hoot" in ASCII, then 1).
const MIGRATION_LOCK: [number, number] = [0x686f6f74, 1];

/**
 * Brings the database up to the newest embedded migration, holding an advisory lock on a connection of its
 * own for the whole run, so concurrent starts migrate one after the other (and the later ones find nothing
 * to do). Safe to run on every start.
 */
export async function migratePostgres(pool: SQL, migrations: EmbeddedMigration[] = embedded): Promise<void> {
  const connection = await pool.reserve();
  try {
    await connection.unsafe("SELECT pg_advisory_lock($1, $2)", MIGRATION_LOCK);
    try {
      const db = pgDb(connection);
      const metas: MigrationMeta[] = migrations.map((m) => ({
        sql: m.sql.split("--> statement-breakpoint"),
        bps: m.breakpoints,
        folderMillis: m.when,
        hash: createHash("sha256").update(m.sql).digest("hex"),
      }));
      // drizzle's dialect migrator is public but not in its type surface for every driver.
      const runner = db as unknown as {
        dialect: { migrate(m: MigrationMeta[], session: unknown, config: { migrationsFolder: string }): Promise<void> };
        session: unknown;
      };
      await runner.dialect.migrate(metas, runner.session, { migrationsFolder: "embedded" });
    } finally {
      await connection.unsafe("SELECT pg_advisory_unlock($1, $2)", MIGRATION_LOCK);
    }
  } finally {
    connection.release();
  }
}

/** The URL with its password (and any secret query parameter) replaced, for logs and messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    for (const key of [...parsed.searchParams.keys()]) if (/pass|secret|key|token/i.test(key)) parsed.searchParams.set(key, "***");
    return parsed.toString();
  } catch {
    return "postgres://…";
  }
}

/**
 * Runs one statement with `$1…` parameters on `db`'s connection (the pool, or the transaction's) and returns
 * its rows as a plain array. For the hot paths, where drizzle's query building and row mapping would cost as
 * much again as the statement; Bun.SQL still prepares it once per connection.
 * @example const rows = await query<{ version: number }>(db, "SELECT version FROM players WHERE id = $1", [id])
 */
export async function query<T>(db: PgDb, text: string, params: unknown[] = []): Promise<T[]> {
  return Array.from((await db.$client.unsafe(text, params)) as T[]);
}

/** Runs one statement and returns how many rows it changed. */
export async function execute(db: PgDb, text: string, params: unknown[] = []): Promise<number> {
  return ((await db.$client.unsafe(text, params)) as { count: number }).count;
}

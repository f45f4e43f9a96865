/**
 * The database a deployment runs on, whichever it is: SQLite (the default, one file, one node) or PostgreSQL
 * (HOOT_DATABASE_URL=postgres://…, any number of nodes on one primary). Everything above src/db sees this
 * interface and the store's repositories; what only one of them has (SQLite's file, write lock and WAL; the
 * PostgreSQL pool) stays behind it, each with its counterpart or a no-op:
 *
 * | concern                       | SQLite                                      | PostgreSQL                                    |
 * |-------------------------------|---------------------------------------------|-----------------------------------------------|
 * | writes while another writes   | async wait for the file's write lock (503)  | row locks on the server, lock_timeout (503)   |
 * | erasing deleted data          | secure_delete + WAL checkpoint (scrub.ts)   | nothing to do here: see the README            |
 * | migrations                    | drizzle's migrator, one process             | drizzle's migrator under an advisory lock     |
 * | backup / restore              | `admin backup` (VACUUM INTO) / `restore`    | pg_dump / pg_restore (the commands refuse)    |
 */
import type { Database as SqliteDatabase } from "bun:sqlite";
import type { SQL } from "bun";
import type { Config } from "../config.ts";
import { openDatabase, isDatabaseReachable, type Db } from "./client.ts";
import { waitForWriteLock } from "./busy.ts";
import { scrubDeletedData } from "./scrub.ts";
import type { Store } from "./store.ts";
import { createSqliteStore } from "./sqlite/store.ts";
import type { PgDb } from "./pg/client.ts";

export type DatabaseKind = "sqlite" | "postgres";

/** The driver-level handles, for what only one database has (backup, tests that look at rows). */
export type RawDatabase = { kind: "sqlite"; sqlite: SqliteDatabase; db: Db } | { kind: "postgres"; pool: SQL; db: PgDb };

export interface Database {
  readonly kind: DatabaseKind;
  /** Every repository, and transactions over them. */
  readonly store: Store;
  /** Where the data is, for messages: the SQLite file, or the PostgreSQL URL without its password. */
  readonly location: string;
  readonly raw: RawDatabase;
  /** True when a trivial query answers (GET /api/ready). */
  ready(): Promise<boolean>;
  /** SQLite: waits (asynchronously) while another process holds the write lock, DatabaseBusy at the deadline. PostgreSQL: nothing to wait for. */
  waitForWriteLock(deadlineMs: number): Promise<void>;
  /** After deleting personal data: SQLite checkpoints the WAL so old page copies go; PostgreSQL: nothing. */
  scrubDeletedData(): void;
  /** Closes the connection (SQLite: after a final checkpoint) or the pool. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** SQLite: how long one statement may wait inside bun:sqlite for a lock (the server keeps this tiny). */
  busyTimeoutMs?: number;
  /** Told about an afterCommit callback that threw. */
  onCallbackError?: (error: unknown) => void;
}

export type DatabaseSettings = Pick<Config, "databaseUrl" | "databasePath" | "databasePoolSize" | "dbLockTimeoutMs">;

/**
 * Opens (creating if needed) and migrates the configured database.
 * @example const database = await connectDatabase(config, { busyTimeoutMs: SERVER_BUSY_TIMEOUT_MS })
 */
export async function connectDatabase(config: DatabaseSettings, options: ConnectOptions = {}): Promise<Database> {
  if (config.databaseUrl === null) return sqliteDatabase(config, options);
  // Loaded only here: a SQLite deployment never evaluates the PostgreSQL driver, schema and repositories at start.
  const { postgresDatabase } = await import("./pg/database.ts");
  return postgresDatabase(config.databaseUrl, config, options);
}

function sqliteDatabase(config: DatabaseSettings, options: ConnectOptions): Database {
  const handle = openDatabase(config.databasePath, { busyTimeoutMs: options.busyTimeoutMs });
  const store = createSqliteStore(handle.db, { lockDeadlineMs: config.dbLockTimeoutMs, onCallbackError: options.onCallbackError });
  return {
    kind: "sqlite",
    store,
    location: config.databasePath,
    raw: { kind: "sqlite", sqlite: handle.sqlite, db: handle.db },
    ready: async () => isDatabaseReachable(handle.sqlite),
    waitForWriteLock: (deadlineMs) => waitForWriteLock(handle.sqlite, deadlineMs),
    scrubDeletedData: () => scrubDeletedData(handle.db),
    close: async () => handle.close(),
  };
}

/** PostgreSQL did not answer at start; the message names the server (without its password) and the reason. */
export class DatabaseUnreachable extends Error {
  constructor(location: string, cause: unknown) {
    super(`cannot connect to PostgreSQL at ${location}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "DatabaseUnreachable";
  }
}

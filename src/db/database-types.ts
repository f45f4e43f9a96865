/**
 * The database's types (see database.ts), in a module of their own so the PostgreSQL side, which database.ts loads
 * lazily, can name them without importing database.ts back.
 */
import type { Database as SqliteDatabase } from "bun:sqlite";
import type { SQL } from "bun";
import type { Config } from "../config.ts";
import type { Db } from "./client.ts";
import type { PgDb } from "./pg/client.ts";
import type { Store, SynchronousRepositories } from "./store.ts";

export type DatabaseKind = "sqlite" | "postgres";

/** The driver-level handles, for what only one database has (backup, tests that look at rows). */
export type RawDatabase = { kind: "sqlite"; sqlite: SqliteDatabase; db: Db } | { kind: "postgres"; pool: SQL; db: PgDb };

/**
 * The repositories `R` over each database (src/boot/repositories.ts: src/db names no feature). The PostgreSQL ones
 * are loaded only when the deployment runs on PostgreSQL, so a SQLite deployment never evaluates them at start.
 */
export interface RepositoryList<R extends object> {
  sqlite: (db: Db) => SynchronousRepositories<R>;
  postgres: () => Promise<(db: PgDb) => R>;
}

export interface Database<R extends object = object> {
  readonly kind: DatabaseKind;
  /** Every repository, and transactions over them. */
  readonly store: Store<R>;
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

/** PostgreSQL did not answer at start; the message names the server (without its password) and the reason. */
export class DatabaseUnreachable extends Error {
  constructor(location: string, cause: unknown) {
    super(`cannot connect to PostgreSQL at ${location}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "DatabaseUnreachable";
  }
}

/**
 * Opens the SQLite database with the pragmas hoot relies on: WAL (readers never wait for the writer),
 * foreign keys (deleting a player cascades to their conversation), secure_delete (deleted rows are
 * overwritten, not just unlinked), NORMAL sync (safe with WAL, far fewer fsyncs), and a busy timeout: long
 * for migrations and admin commands, a few milliseconds for the server, which waits for locks asynchronously
 * instead (see busy.ts). The file and its -wal and -shm are 0600, in a 0700 folder.
 */
import { Database } from "bun:sqlite";
import { closeSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import { createPrivateFile, ensurePrivateDir, restrictFile } from "../private-files.ts";
import { migrateDatabase } from "./migrate.ts";
import * as schema from "./schema.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export interface DbHandle {
  db: Db;
  sqlite: Database;
  close(): void;
}

export interface OpenOptions {
  /** How long one statement may wait for another connection's lock, once migrated (default 5000 ms). */
  busyTimeoutMs?: number;
}

// Migrations and closing run before listening or after stopping: waiting there blocks nobody.
const SETUP_BUSY_TIMEOUT_MS = 5000;

/** Opens (creating if needed) and migrates the database at `path`. */
export function openDatabase(path: string, options: OpenOptions = {}): DbHandle {
  if (path !== ":memory:") {
    ensurePrivateDir(dirname(path));
    createPrivateFile(path);
    for (const suffix of ["-wal", "-shm"]) restrictFile(path + suffix);
  }
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec(`PRAGMA busy_timeout = ${SETUP_BUSY_TIMEOUT_MS}`);
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA secure_delete = ON");
  const db = drizzle({ client: sqlite, schema });
  migrateDatabase(db);
  sqlite.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? SETUP_BUSY_TIMEOUT_MS))}`);
  return {
    db,
    sqlite,
    close() {
      try {
        sqlite.exec(`PRAGMA busy_timeout = ${SETUP_BUSY_TIMEOUT_MS}`);
        sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      } catch {
        // A statement still stepping blocks the explicit checkpoint; closing the last connection checkpoints anyway.
      } finally {
        sqlite.close();
      }
    },
  };
}

/** True when a trivial query answers (for /api/ready). */
export function isDatabaseReachable(sqlite: Database): boolean {
  try {
    return sqlite.query("SELECT 1 AS ok").get() !== null;
  } catch {
    return false;
  }
}

/**
 * Copies everything the WAL holds into the database file and empties the WAL, so bytes of deleted rows
 * (already overwritten in the database by secure_delete) do not linger in old WAL frames. Never waits more
 * than the connection's busy timeout; returns false when readers kept it from finishing (try again later).
 */
export function checkpointTruncate(sqlite: Database): boolean {
  const row = sqlite.query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
  return row !== null && row.busy === 0;
}

/** A consistent online copy of the database (VACUUM INTO works while the server writes), 0600. */
export function backupDatabase(sqlite: Database, outPath: string): void {
  ensurePrivateDir(dirname(outPath), { tighten: false });
  // VACUUM INTO accepts an empty file: creating it first (0600, refusing to overwrite) sets its mode.
  createPrivateFileExclusive(outPath);
  sqlite.query("VACUUM INTO ?").run(outPath);
  restrictFile(outPath);
}

function createPrivateFileExclusive(path: string): void {
  try {
    // "wx": an existing backup is never overwritten.
    closeSync(openSync(path, "wx", 0o600));
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") throw new Error(`${path} already exists; choose a new file for the backup`);
    throw error;
  }
}

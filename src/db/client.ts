/**
 * Opens the SQLite database with the pragmas hoot relies on: WAL (readers never wait for the writer),
 * foreign keys (deleting a player cascades to their conversation), a busy timeout (admin commands and
 * the server may write at once), and NORMAL sync (safe with WAL, far fewer fsyncs).
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema.ts";
import { migrateDatabase } from "./migrate.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export interface DbHandle {
  db: Db;
  sqlite: Database;
  close(): void;
}

/** Opens (creating if needed) and migrates the database at `path`. */
export function openDatabase(path: string): DbHandle {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  const db = drizzle({ client: sqlite, schema });
  migrateDatabase(db);
  return {
    db,
    sqlite,
    close() {
      try {
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

/** A consistent online copy of the database (VACUUM INTO works while the server writes). */
export function backupDatabase(sqlite: Database, outPath: string): void {
  mkdirSync(dirname(outPath), { recursive: true });
  sqlite.query("VACUUM INTO ?").run(outPath);
}

/**
 * The test databases. SQLite is a file in a temp folder; PostgreSQL is a fresh database per test server on the
 * throwaway cluster `.ci/postgres.sh` starts (its URL in HOOT_TEST_DATABASE_URL), dropped when the server
 * closes.
 *   HOOT_TEST_DATABASE_URL   the cluster (any database on it; new ones are created beside it)
 *   HOOT_TEST_BACKEND        "postgres" runs the HTTP and socket tests' servers on PostgreSQL (CI's second pass)
 * Without the URL, the PostgreSQL half of the contract suites is skipped, except in CI (CI=true), where a
 * missing cluster is a failure.
 */
import { SQL } from "bun";
import type { Database } from "../../src/boot/repositories.ts";

export type Backend = "sqlite" | "postgres";

/** The cluster's URL, or null. */
export const PG_URL = process.env.HOOT_TEST_DATABASE_URL?.trim() || null;

/** Whether the PostgreSQL tests can run (and must, in CI). */
export const PG_AVAILABLE = PG_URL !== null;
if (!PG_AVAILABLE && process.env.CI === "true") {
  throw new Error("HOOT_TEST_DATABASE_URL is not set: CI runs every contract suite on PostgreSQL too (.ci/run starts a cluster with .ci/postgres.sh)");
}

/** The backend test servers run on in this pass. */
export const SERVER_BACKEND: Backend = process.env.HOOT_TEST_BACKEND === "postgres" ? "postgres" : "sqlite";
if (SERVER_BACKEND === "postgres" && !PG_AVAILABLE) throw new Error("HOOT_TEST_BACKEND=postgres needs HOOT_TEST_DATABASE_URL");

/** The backends a contract suite runs on here. */
export const CONTRACT_BACKENDS: Backend[] = PG_AVAILABLE ? ["sqlite", "postgres"] : ["sqlite"];

let admin: SQL | null = null;
let counter = 0;

function adminPool(): SQL {
  admin ??= new SQL({ url: PG_URL!, max: 2, idleTimeout: 5 });
  return admin;
}

/** Creates an empty database on the cluster; its URL and a function that drops it. */
export async function createPgDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `hoot_test_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  await adminPool().unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      // FORCE: a pool that has not noticed its server stopped may still hold a connection.
      await adminPool().unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/**
 * Raw SQL on the database behind a running server, in SQLite's `?` placeholder style (turned into `$1…` for
 * PostgreSQL), for tests that look at what was (not) written or change rows behind the server's back. Counts
 * should be written `CAST(count(*) AS INTEGER)`, which both dialects read as a number.
 * @example const rows = await rawSql(server.deps.database, "SELECT role FROM conversation_messages WHERE player_id = ?", id)
 */
export async function rawSql(database: Database, text: string, ...params: unknown[]): Promise<Record<string, any>[]> {
  const raw = database.raw;
  if (raw.kind === "sqlite") return raw.sqlite.query(text).all(...(params as (string | number | null | Uint8Array)[])) as Record<string, any>[];
  let n = 0;
  const pgText = text.replace(/\?/g, () => `$${++n}`);
  return Array.from((await raw.pool.unsafe(pgText, params)) as Record<string, any>[]);
}

/**
 * Holds, from another connection, the locks a concurrent writer would: on SQLite the file's write lock
 * (BEGIN IMMEDIATE; every write waits), on PostgreSQL row locks (FOR UPDATE) on the given teams and players
 * (a write that touches them, such as creating a player in the team or deleting or remembering for the player,
 * waits). `release` commits and lets the writers through.
 */
export async function holdLocks(database: Database, rows: { teams?: number[]; players?: number[] } = {}): Promise<{ release(): Promise<void> }> {
  const raw = database.raw;
  if (raw.kind === "sqlite") {
    const { Database: SqliteDatabase } = await import("bun:sqlite");
    const holder = new SqliteDatabase(raw.sqlite.filename);
    holder.exec("BEGIN IMMEDIATE");
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        holder.exec("COMMIT");
        holder.close();
      },
    };
  }
  const connection = await raw.pool.reserve();
  await connection.unsafe("BEGIN");
  for (const id of rows.teams ?? []) await connection.unsafe("SELECT id FROM teams WHERE id = $1 FOR UPDATE", [id]);
  for (const id of rows.players ?? []) await connection.unsafe("SELECT id FROM players WHERE id = $1 FOR UPDATE", [id]);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await connection.unsafe("COMMIT");
      connection.release();
    },
  };
}

/** Every row of every hoot table as text (binary columns as latin1), for tests that look for a secret anywhere in the data. */
export async function everything(database: Database): Promise<Buffer> {
  const raw = database.raw;
  if (raw.kind === "sqlite") {
    raw.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const { readFileSync } = await import("node:fs");
    return readFileSync(raw.sqlite.filename);
  }
  const tables = await rawSql(database, "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'");
  const parts: Buffer[] = [];
  for (const { name } of tables) {
    for (const row of await rawSql(database, `SELECT * FROM "${name}"`)) {
      for (const value of Object.values(row))
        parts.push(Buffer.isBuffer(value) || value instanceof Uint8Array ? Buffer.from(value) : Buffer.from(String(value)));
    }
  }
  return Buffer.concat(parts);
}

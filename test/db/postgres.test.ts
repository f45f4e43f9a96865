/**
 * What only the PostgreSQL backend has: migrations under an advisory lock (nodes starting at once migrate once),
 * lock waits that end in a busy error, a server that cannot be reached, and the URL's password kept out of
 * messages. Skipped without a test cluster (CI always has one).
 */
import { describe, expect, it } from "bun:test";
import { SQL } from "bun";
import { connectDatabase, DatabaseUnreachable } from "../../src/boot/repositories.ts";
import { isBusyError, isConnectionError } from "../../src/db/errors.ts";
import { createPool, migratePostgres, redactUrl } from "../../src/db/pg/client.ts";
import { migrations } from "../../src/db/pg/migrations.gen.ts";
import { createPgDatabase, PG_AVAILABLE } from "../helpers/database.ts";
import { openTestDatabase, rejection, unique } from "./contract/harness.ts";

describe.skipIf(!PG_AVAILABLE)("PostgreSQL", () => {
  it("migrates once when several nodes start at the same moment on an empty database", async () => {
    const created = await createPgDatabase();
    const pools = Array.from({ length: 4 }, () => createPool(created.url, { poolSize: 2, lockTimeoutMs: 5000 }));
    try {
      await Promise.all(pools.map((pool) => migratePostgres(pool)));
      const applied = await pools[0]!.unsafe("SELECT hash FROM drizzle.__drizzle_migrations");
      expect(applied.length).toBe(migrations.length);
      const tables = await pools[0]!.unsafe("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
      expect(tables[0].n).toBeGreaterThanOrEqual(11);
      // And a later start finds nothing to do.
      await migratePostgres(pools[1]!);
      expect((await pools[0]!.unsafe("SELECT hash FROM drizzle.__drizzle_migrations")).length).toBe(migrations.length);
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
      await created.drop();
    }
  });

  it("ends a write that waits for a row lock past the lock timeout with a busy error", async () => {
    const { database, cleanup } = await openTestDatabase("postgres", { lockTimeoutMs: 200 });
    try {
      const team = await database.store.teams.insert(unique("locked"));
      const raw = database.raw;
      if (raw.kind !== "postgres") throw new Error("expected PostgreSQL");
      const holder = await raw.pool.reserve();
      await holder.unsafe("BEGIN");
      await holder.unsafe("SELECT id FROM teams WHERE id = $1 FOR UPDATE", [team.id]);
      try {
        const started = performance.now();
        const error = await rejection(database.store.teams.rename(team.id, unique("renamed")));
        expect(isBusyError(error)).toBe(true);
        expect(performance.now() - started).toBeGreaterThanOrEqual(150);
      } finally {
        await holder.unsafe("ROLLBACK");
        holder.release();
      }
    } finally {
      await cleanup();
    }
  });

  it("refuses to start when the server cannot be reached, naming it without the password", async () => {
    const error = await rejection(
      connectDatabase({ databaseUrl: "postgres://hoot:hunter2@127.0.0.1:1/hoot", databasePath: "", databasePoolSize: 1, dbLockTimeoutMs: 1000 }),
    );
    expect(error).toBeInstanceOf(DatabaseUnreachable);
    expect((error as Error).message).toContain("127.0.0.1:1");
    expect((error as Error).message).not.toContain("hunter2");
  });

  it("tells a connection failure from other errors", async () => {
    const pool = new SQL({ url: "postgres://hoot@127.0.0.1:1/hoot", max: 1, connectionTimeout: 2 });
    try {
      expect(isConnectionError(await rejection(pool.unsafe("SELECT 1")))).toBe(true);
    } finally {
      await pool.close();
    }
    expect(isConnectionError(new Error("something else"))).toBe(false);
  });

  it("redacts the password and secret parameters of a URL", () => {
    expect(redactUrl("postgres://hoot:hunter2@db.example.com:5432/hoot?sslmode=require&password=x")).toBe(
      "postgres://hoot:***@db.example.com:5432/hoot?sslmode=require&password=***",
    );
    expect(redactUrl("not a url")).toBe("postgres://…");
  });
});

/** The PostgreSQL side of src/db/database.ts: connect, migrate under the advisory lock, and the Database over the pool. */
import { type ConnectOptions, type Database, type DatabaseSettings, DatabaseUnreachable } from "../database-types.ts";
import { createPool, migratePostgres, type PgDb, pgDb, redactUrl } from "./client.ts";
import { createPgStore } from "./store.ts";

/** Connects to `url` (failing at once with DatabaseUnreachable), migrates, and wraps the pool. */
export async function postgresDatabase<R extends object>(
  url: string,
  repositories: (db: PgDb) => R,
  config: DatabaseSettings,
  options: ConnectOptions,
): Promise<Database<R>> {
  const location = redactUrl(url);
  const pool = createPool(url, { poolSize: config.databasePoolSize, lockTimeoutMs: config.dbLockTimeoutMs });
  try {
    await pool.unsafe("SELECT 1");
  } catch (error) {
    await pool.close({ timeout: 0 }).catch(() => undefined);
    throw new DatabaseUnreachable(location, error);
  }
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.close({ timeout: 0 }).catch(() => undefined);
    throw error;
  }
  let closed = false;
  return {
    kind: "postgres",
    store: createPgStore(pool, repositories, { onCallbackError: options.onCallbackError }),
    location,
    raw: { kind: "postgres", pool, db: pgDb(pool) },
    async ready() {
      try {
        await pool.unsafe("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    waitForWriteLock: async () => undefined,
    scrubDeletedData: () => undefined,
    async close() {
      if (closed) return;
      closed = true;
      await pool.close({ timeout: 5 });
    },
  };
}

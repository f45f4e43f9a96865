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

import { waitForWriteLock } from "./busy.ts";
import { isDatabaseReachable, openDatabase } from "./client.ts";
import type { ConnectOptions, Database, DatabaseSettings, RepositoryList } from "./database-types.ts";
import { scrubDeletedData } from "./scrub.ts";
import { createSqliteStore } from "./sqlite/store.ts";

export {
  type ConnectOptions,
  type Database,
  type DatabaseKind,
  type DatabaseSettings,
  DatabaseUnreachable,
  type RawDatabase,
  type RepositoryList,
} from "./database-types.ts";

/**
 * Opens (creating if needed) and migrates the configured database, with a store over `repositories`.
 * @example const database = await connectDatabaseWith(config, repositories, { busyTimeoutMs: SERVER_BUSY_TIMEOUT_MS })
 */
export async function connectDatabaseWith<R extends object>(
  config: DatabaseSettings,
  repositories: RepositoryList<R>,
  options: ConnectOptions = {},
): Promise<Database<R>> {
  if (config.databaseUrl === null) return sqliteDatabase(config, repositories.sqlite, options);
  // Loaded only here: a SQLite deployment never evaluates the PostgreSQL driver, schema and repositories at start.
  const [{ postgresDatabase }, pgRepositories] = await Promise.all([import("./pg/database.ts"), repositories.postgres()]);
  return postgresDatabase(config.databaseUrl, pgRepositories, config, options);
}

function sqliteDatabase<R extends object>(config: DatabaseSettings, repositories: RepositoryList<R>["sqlite"], options: ConnectOptions): Database<R> {
  const handle = openDatabase(config.databasePath, { busyTimeoutMs: options.busyTimeoutMs });
  const store = createSqliteStore(handle.db, repositories, { lockDeadlineMs: config.dbLockTimeoutMs, onCallbackError: options.onCallbackError });
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

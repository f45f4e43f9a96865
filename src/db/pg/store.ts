/**
 * The store over PostgreSQL. Outside a transaction every repository call borrows a pooled connection for one
 * statement; `transaction(work)` holds one connection from BEGIN to COMMIT (Bun.SQL's `begin`) and hands
 * `work` a store whose repositories run on it; a nested `transaction` is a savepoint on that connection.
 * Transactions run at READ COMMITTED, PostgreSQL's default: the services that check-then-insert rely on the
 * unique indexes (a duplicate is a 409, never a second row), and deleting a team locks its row first.
 */
import type { SQL } from "bun";
import { runCallbacks, type Store } from "../store.ts";
import { type PgDb, pgDb } from "./client.ts";

export interface PgStoreOptions {
  /** Told about an afterCommit callback that threw (it never undoes the commit). */
  onCallbackError?: (error: unknown) => void;
}

/** The store over a pool, with the repositories `repositories(db)` builds over one drizzle handle (the pool, or one transaction's connection). */
export function createPgStore<R extends object>(pool: SQL, repositories: (db: PgDb) => R, options: PgStoreOptions = {}): Store<R> {
  return {
    ...repositories(pgDb(pool)),
    async transaction<T>(work: (tx: Store<R>) => Promise<T>): Promise<T> {
      const committed: (() => void)[] = [];
      const result = (await pool.begin((client) => work(transactionStore(client, repositories, committed)))) as T;
      const error = runCallbacks(committed);
      if (error !== null) options.onCallbackError?.(error);
      return result;
    },
    afterCommit: (fn) => fn(),
  };
}

// A store on one transaction's (or savepoint's) connection; callbacks wait in `queue` for the outer commit.
function transactionStore<R extends object>(client: SQL, repositories: (db: PgDb) => R, queue: (() => void)[]): Store<R> {
  return {
    ...repositories(pgDb(client)),
    async transaction<T>(work: (tx: Store<R>) => Promise<T>): Promise<T> {
      const queued = queue.length;
      try {
        return (await (client as SQL & { savepoint(fn: (sp: SQL) => Promise<T>): Promise<T> }).savepoint((sp) =>
          work(transactionStore(sp, repositories, queue)),
        )) as T;
      } catch (error) {
        queue.length = queued;
        throw error;
      }
    },
    afterCommit: (fn) => void queue.push(fn),
  };
}

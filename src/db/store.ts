/**
 * The store: the repositories it is given behind one object, the same on SQLite and PostgreSQL. Services take
 * `deps.store` and never see SQL or the database's dialect; each feature declares its repository interface in
 * its own `repo.ts` and implements it twice (`repo-sqlite.ts`, `repo-pg.ts`), checked by one contract suite
 * (test/db/contract/) that runs against both.
 *
 * Rules the store keeps:
 *  - every method is async (a PostgreSQL query is a round trip); the SQLite repositories answer at once inside
 *    (bun:sqlite is synchronous) and keep their prepared statements;
 *  - `transaction(work)` runs `work` with a store bound to one transaction: all of its writes land or none do.
 *    Inside, use only the store `work` was given (a nested `transaction` is a savepoint). On SQLite, where the
 *    one connection would otherwise mix other requests' statements into the transaction, every call on the
 *    outer store waits while a transaction is open (see sqlite/store.ts);
 *  - `afterCommit(fn)` runs `fn` once the outermost transaction has committed (at once outside one), so what
 *    other parts of the process learn (a revocation closing sockets) is never ahead of the data.
 */
/**
 * The repositories `R` (built in src/boot/repositories.ts, which names every feature: src/db names none), and the
 * transaction that spans them. A feature names only the repositories it needs: `Store<{ players: PlayerRepo }>`.
 */
export type Store<R extends object = object> = R & {
  /** Runs `work` in one transaction (a savepoint when already inside one); its result, or its error after a rollback. */
  transaction<T>(work: (tx: Store<R>) => Promise<T>): Promise<T>;
  /** Runs `fn` after the outermost transaction commits (dropped if it rolls back); at once outside a transaction. */
  afterCommit(fn: () => void): void;
};

/** The synchronous (SQLite) form of every repository in `R`. */
export type SynchronousRepositories<R extends object> = { [K in keyof R]: Synchronous<R[K]> };

/**
 * A repository whose methods answer at once: the shape of the SQLite implementations, which the SQLite store
 * turns into the async interface.
 */
export type Synchronous<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => Promise<infer T> ? (...args: A) => T : R[K];
};

/** Runs each queued callback, so one that throws cannot keep the others from running; returns the first error. */
export function runCallbacks(callbacks: (() => void)[]): unknown {
  let first: unknown = null;
  for (const fn of callbacks) {
    try {
      fn();
    } catch (error) {
      first ??= error;
    }
  }
  return first;
}

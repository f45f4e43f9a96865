/**
 * Waiting for SQLite's write lock without blocking the event loop. bun:sqlite's busy handler sleeps inside
 * the (synchronous) statement, so while another process holds the write lock a long busy timeout freezes
 * every request and socket. The server's connection therefore waits at most SERVER_BUSY_TIMEOUT_MS inside a
 * statement; longer waits happen here, between attempts, with `await`:
 *  - `waitForWriteLock` takes and releases the write lock (BEGIN IMMEDIATE; ROLLBACK) until it succeeds,
 *    backing off asynchronously, then throws DatabaseBusy at the deadline. HTTP writes call it (through
 *    `Database.waitForWriteLock`) before their handler runs, so the handler's own statements find the lock free;
 *  - `retryWhileBusy` runs an all-or-nothing unit of work (one statement or one transaction) and runs it again
 *    after a pause while it fails with a busy error (SQLite's SQLITE_BUSY, PostgreSQL's lock timeout,
 *    serialization failure or deadlock), up to a deadline.
 * PostgreSQL has no database-wide write lock: writers wait for row locks on the server, asynchronously for
 * us, up to the connection's lock_timeout (set to HOOT_DB_LOCK_TIMEOUT_MS).
 */
import type { Database } from "bun:sqlite";
import { DatabaseBusy } from "../errors.ts";
import { isBusyError } from "./errors.ts";

export { isBusyError };

/** How long one statement of the server may wait for a lock: the longest the event loop may stall on one. */
export const SERVER_BUSY_TIMEOUT_MS = 5;

const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 100;

/**
 * Resolves once this connection could take the write lock (and has let it go again); throws DatabaseBusy
 * when another connection still holds it after `deadlineMs`.
 * @example await waitForWriteLock(sqlite, 5000); createPlayer(...)
 */
export async function waitForWriteLock(sqlite: Database, deadlineMs: number): Promise<void> {
  await retryWhileBusy(() => probeWriteLock(sqlite), deadlineMs);
}

/**
 * Runs `work` (all-or-nothing: one statement or one transaction) and returns its result, running it again
 * after an asynchronous pause while it fails with a busy error; DatabaseBusy after `deadlineMs`.
 * @example const removed = await retryWhileBusy(() => purgeExpired(deps, 30), 5000)
 */
export async function retryWhileBusy<T>(work: () => T | Promise<T>, deadlineMs: number): Promise<T> {
  const started = performance.now();
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isBusyError(error)) throw error;
    }
    const left = deadlineMs - (performance.now() - started);
    if (left <= 0) throw new DatabaseBusy();
    // Jitter, so that several waiters do not retry in lockstep.
    await Bun.sleep(Math.min(left, pause * (0.5 + Math.random() / 2)));
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
}

function probeWriteLock(sqlite: Database): void {
  // Inside a transaction of our own the lock question is already settled.
  if (sqlite.inTransaction) return;
  sqlite.exec("BEGIN IMMEDIATE");
  sqlite.exec("ROLLBACK");
}

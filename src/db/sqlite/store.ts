/**
 * The store over bun:sqlite. The repositories are synchronous (one prepared statement each, answered at once);
 * this module gives them the async interface and the transactions.
 *
 * One connection serves the whole process, so while a transaction is open (between BEGIN and COMMIT other
 * requests keep running at every `await`) any statement on that connection would become part of it: seen
 * uncommitted, and undone by its rollback. So a transaction holds a gate: every call on the outer store waits
 * until no transaction is open, and transactions run one at a time. Calls on the store a transaction hands to
 * its work pass straight through. Outside transactions the gate costs one check per call.
 *
 * Transactions begin IMMEDIATE (taking the write lock at once), waiting asynchronously with backoff while
 * another process holds it (retryWhileBusy), so a busy database never stalls the event loop and never fails
 * half-way through the work.
 */
import type { Database } from "bun:sqlite";
import { retryWhileBusy } from "../busy.ts";
import type { Db } from "../client.ts";
import { runCallbacks, type Store, type SynchronousRepositories } from "../store.ts";

export interface SqliteStoreOptions {
  /** How long a transaction waits (asynchronously) for another process's write lock before DatabaseBusy. */
  lockDeadlineMs: number;
  /** Told about an afterCommit callback that threw (it never undoes the commit). */
  onCallbackError?: (error: unknown) => void;
}

interface Gate {
  /** Settles when the open transaction ends; null when none is open. */
  open: Promise<void> | null;
  /** Callbacks waiting for the open transaction's commit. */
  afterCommit: (() => void)[];
  /** Savepoints inside the open transaction. */
  depth: number;
}

/**
 * The async store over `db` and the synchronous repositories `repositories(db)` builds; the same handle's
 * repositories serve the store and its transactions.
 */
export function createSqliteStore<R extends object>(db: Db, repositories: (db: Db) => SynchronousRepositories<R>, options: SqliteStoreOptions): Store<R> {
  const sqlite = db.$client;
  const sync = repositories(db);
  const gate: Gate = { open: null, afterCommit: [], depth: 0 };

  const inner: Store<R> = {
    ...facade<R>(sync, null),
    transaction: (work) => savepoint(sqlite, gate, () => work(inner)),
    afterCommit: (fn) => void gate.afterCommit.push(fn),
  };

  return {
    ...facade<R>(sync, gate),
    async transaction<T>(work: (tx: Store<R>) => Promise<T>): Promise<T> {
      while (gate.open) await gate.open;
      let release!: () => void;
      gate.open = new Promise((resolve) => (release = resolve));
      gate.afterCommit = [];
      let result: T;
      let committed: (() => void)[];
      try {
        await retryWhileBusy(() => sqlite.exec("BEGIN IMMEDIATE"), options.lockDeadlineMs);
        try {
          result = await work(inner);
          sqlite.exec("COMMIT");
        } catch (error) {
          if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
          throw error;
        }
        committed = gate.afterCommit;
      } finally {
        gate.afterCommit = [];
        gate.depth = 0;
        gate.open = null;
        release();
      }
      const error = runCallbacks(committed);
      if (error !== null) options.onCallbackError?.(error);
      return result;
    },
    afterCommit: (fn) => fn(),
  };
}

// A savepoint inside the open transaction; its queued callbacks go with it when it rolls back.
async function savepoint<T>(sqlite: Database, gate: Gate, work: () => Promise<T>): Promise<T> {
  const name = `hoot_sp${++gate.depth}`;
  const queued = gate.afterCommit.length;
  sqlite.exec(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    sqlite.exec(`RELEASE ${name}`);
    return result;
  } catch (error) {
    sqlite.exec(`ROLLBACK TO ${name}`);
    sqlite.exec(`RELEASE ${name}`);
    gate.afterCommit.length = queued;
    throw error;
  } finally {
    gate.depth--;
  }
}

type AnyFn = (...args: unknown[]) => unknown;

// The async face of the synchronous repositories: each call answers a settled promise (a throw becomes a
// rejection); on the outer store, a call made while a transaction is open waits for it to end.
function facade<R extends object>(sync: SynchronousRepositories<R>, gate: Gate | null): R {
  const out: Record<string, Record<string, AnyFn>> = {};
  for (const [name, repo] of Object.entries(sync)) {
    const methods: Record<string, AnyFn> = {};
    for (const [key, fn] of Object.entries(repo as Record<string, unknown>)) {
      if (typeof fn !== "function") continue;
      const call = fn as AnyFn;
      methods[key] = gate === null ? (...args) => settle(call, args) : (...args) => (gate.open === null ? settle(call, args) : afterGate(gate, call, args));
    }
    out[name] = methods;
  }
  return out as unknown as R;
}

function settle(fn: AnyFn, args: unknown[]): Promise<unknown> {
  try {
    return Promise.resolve(fn(...args));
  } catch (error) {
    return Promise.reject(error);
  }
}

async function afterGate(gate: Gate, fn: AnyFn, args: unknown[]): Promise<unknown> {
  while (gate.open) await gate.open;
  return fn(...args);
}

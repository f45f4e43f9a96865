/**
 * Group commit of the audit rows of reads (`player.read`, PROTOCOL.md section 8). Every `GET /api/players/{pk}`
 * writes a row; written one by one, each row's INSERT and commit cost more than the rest of the request. So the
 * rows of concurrent requests are queued and written together, in one transaction (PostgreSQL: one multi-row
 * INSERT), on the next turn of the event loop. Rules it keeps:
 * - a request's response waits until its own row has committed: no weaker durability than one INSERT each;
 * - one flush at a time; rows queued meanwhile go in the next one, which starts as soon as it ends;
 * - bounded: at most AUDIT_BATCH_ROWS rows per transaction and AUDIT_QUEUE_ROWS waiting; a row beyond that is
 *   written on its own at once (today's path), so a flood of reads cannot grow the queue;
 * - a busy database (another process holds SQLite's write lock) does not hold the reads up: their responses go,
 *   and the batch is written in the background while the lock deadline lasts (HOOT_DB_LOCK_TIMEOUT_MS), as one
 *   row was before; rows that still cannot be written are logged with their ids only;
 * - any other failure fails every request of the batch (nothing was written: the batch is one transaction).
 */
import { isBusyError, retryWhileBusy } from "../db/busy.ts";
import type { AuditRepo, NewAuditRow } from "./repo.ts";

/** The most rows one flush writes (PostgreSQL: 6 parameters a row, far below its 65,535). */
export const AUDIT_BATCH_ROWS = 500;
/** The most rows waiting for a flush; a read beyond it writes its row on its own. */
export const AUDIT_QUEUE_ROWS = 5_000;

/** How a queued row ended: committed, left to the background retry (busy database), or failed. */
export type Outcome = { kind: "written" } | { kind: "busy" } | { kind: "failed"; error: unknown };

export interface GroupCommitOptions {
  /** How long the background retry waits for a busy database. */
  lockDeadlineMs: number;
  /** Told about each row the background retry could not write. */
  notWritten: (row: NewAuditRow, error: unknown) => void;
  batchRows?: number;
  queueRows?: number;
}

export interface GroupCommit {
  /** Queues `row`; settles once its flush ended; null when the queue is full (write the row yourself). */
  write(row: NewAuditRow): Promise<Outcome> | null;
  /** Rows waiting for a flush (tests). */
  readonly queued: number;
}

interface Waiting {
  row: NewAuditRow;
  done: (outcome: Outcome) => void;
}

/** A group commit writing through `repo.insertMany`. */
export function createGroupCommit(repo: Pick<AuditRepo, "insertMany">, options: GroupCommitOptions): GroupCommit {
  const batchRows = options.batchRows ?? AUDIT_BATCH_ROWS;
  const queueRows = options.queueRows ?? AUDIT_QUEUE_ROWS;
  let queue: Waiting[] = [];
  let scheduled = false;
  let flushing = false;

  const schedule = () => {
    if (scheduled || flushing || queue.length === 0) return;
    scheduled = true;
    setImmediate(flush);
  };

  const flush = async () => {
    scheduled = false;
    flushing = true;
    const batch = queue.length <= batchRows ? queue : queue.slice(0, batchRows);
    queue = batch === queue ? [] : queue.slice(batchRows);
    const rows = batch.map((w) => w.row);
    let outcome: Outcome;
    try {
      await repo.insertMany(rows);
      outcome = { kind: "written" };
    } catch (error) {
      outcome = isBusyError(error) ? { kind: "busy" } : { kind: "failed", error };
    }
    flushing = false;
    if (outcome.kind === "busy") {
      void retryWhileBusy(() => repo.insertMany(rows), options.lockDeadlineMs).catch((late: unknown) => {
        for (const row of rows) options.notWritten(row, late);
      });
    }
    for (const w of batch) w.done(outcome);
    schedule();
  };

  return {
    write(row) {
      if (queue.length >= queueRows) return null;
      return new Promise<Outcome>((done) => {
        queue.push({ row, done });
        schedule();
      });
    },
    get queued() {
      return queue.length;
    },
  };
}

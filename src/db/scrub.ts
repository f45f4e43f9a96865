/**
 * Erasing deleted personal data from the files, not just from the tables. With secure_delete on, SQLite
 * overwrites deleted rows in the database pages, but older copies of those pages stay in the WAL until a
 * checkpoint; a TRUNCATE checkpoint copies the WAL back and empties it. Called after a player is deleted and
 * after a retention purge.
 */
import type { Database } from "bun:sqlite";
import { isBusyError } from "./busy.ts";
import type { Db } from "./client.ts";
import { checkpointTruncate } from "./client.ts";

const RETRY_FIRST_MS = 50;
const RETRY_LONGEST_MS = 5000;
const GIVE_UP_AFTER_MS = 10 * 60_000;

// One pending retry per connection: many deletions in a row need one checkpoint, not one each.
const pending = new WeakSet<Database>();

/**
 * Checkpoints with truncation now; if a reader (e.g. a backup) is in the way, tries again in the background
 * with backoff, never blocking the event loop for more than the connection's short busy timeout.
 * @example deletePlayer(db, teamId, id); scrubDeletedData(db);
 */
export function scrubDeletedData(db: Db): void {
  const sqlite = db.$client;
  if (pending.has(sqlite)) return;
  if (attempt(sqlite)) return;
  pending.add(sqlite);
  const started = Date.now();
  let pause = RETRY_FIRST_MS;
  const retry = () => {
    if (attempt(sqlite) || Date.now() - started > GIVE_UP_AFTER_MS) {
      pending.delete(sqlite);
      return;
    }
    pause = Math.min(pause * 2, RETRY_LONGEST_MS);
    setTimeout(retry, pause).unref?.();
  };
  setTimeout(retry, pause).unref?.();
}

// True when done (or when there is nothing left to do: the database was closed, which checkpoints anyway).
function attempt(sqlite: Database): boolean {
  try {
    return checkpointTruncate(sqlite);
  } catch (error) {
    return !isBusyError(error);
  }
}

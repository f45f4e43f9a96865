/**
 * Player memory: each player's conversation is stored (deleted with the player) and the newest messages
 * that fit a character budget are given to the model, across sockets and restarts. Messages older than the
 * retention period are purged by a periodic job. The words are stored encrypted (cipher.ts); rows written by
 * older versions in plain text are still read, and are sealed at the next start (`sealPlainMessages`).
 */
import type { Db } from "../db/client.ts";
import { retryWhileBusy } from "../db/busy.ts";
import { scrubDeletedData } from "../db/scrub.ts";
import type { Logger } from "../log.ts";
import type { HistoryMessage } from "../engine/types.ts";
import { textCipherOf } from "./cipher.ts";
import { appendSealed, deleteMessagesBefore, newestRows, plainRows, sealRows, type Role } from "./repo.ts";

// Rows fetched per turn: enough to fill the budget with short messages, never the whole table.
const maxRows = (budgetChars: number) => Math.min(200, Math.max(10, Math.ceil(budgetChars / 40)));

/** The newest messages of a player that fit `budgetChars`, oldest first. */
export function loadHistory(db: Db, playerId: number, budgetChars: number): HistoryMessage[] {
  if (budgetChars <= 0) return [];
  const cipher = textCipherOf(db);
  const out: HistoryMessage[] = [];
  let used = 0;
  for (const row of newestRows(db, playerId, maxRows(budgetChars))) {
    // A row that does not open (tampered with, or moved from another player) is left out, never shown.
    const text = row.sealed ? cipher.open(row.sealed, playerId, row.role) : row.text;
    if (text === null) continue;
    used += text.length;
    if (used > budgetChars) break;
    out.push({ role: row.role, text });
  }
  return out.reverse();
}

/** Stores one finished turn: the child's words (unless the turn had none) and what was actually sent back. */
export function recordTurn(db: Db, playerId: number, userText: string | null, replyText: string): void {
  const cipher = textCipherOf(db);
  const messages: { role: Role; sealed: Buffer }[] = [];
  if (userText !== null) messages.push({ role: "user", sealed: cipher.seal(userText, playerId, "user") });
  if (replyText.trim() !== "") messages.push({ role: "assistant", sealed: cipher.seal(replyText, playerId, "assistant") });
  appendSealed(db, playerId, messages);
}

/**
 * `recordTurn`, waiting asynchronously (up to `deadlineMs`) while another process holds the write lock,
 * then DatabaseBusy. The turn is one transaction, so trying again never stores it twice.
 * @example await saveTurn(db, playerId, "hi", "Hello!", config.dbLockTimeoutMs)
 */
export function saveTurn(db: Db, playerId: number, userText: string | null, replyText: string, deadlineMs: number): Promise<void> {
  return retryWhileBusy(() => recordTurn(db, playerId, userText, replyText), deadlineMs);
}

/** Deletes conversation data older than `retentionDays`; returns the number of messages removed. */
export function purgeExpired(db: Db, retentionDays: number, now = Date.now()): number {
  const removed = deleteMessagesBefore(db, now - retentionDays * 86_400_000);
  if (removed > 0) scrubDeletedData(db);
  return removed;
}

/** Seals every message an older version stored in plain text; returns how many. Run at start. */
export function sealPlainMessages(db: Db): number {
  const cipher = textCipherOf(db);
  let total = 0;
  for (;;) {
    const rows = plainRows(db, 500);
    if (rows.length === 0) break;
    sealRows(
      db,
      rows.map((r) => ({ id: r.id, sealed: cipher.seal(r.text, r.playerId, r.role) })),
    );
    total += rows.length;
  }
  // The plain text is overwritten in the pages (secure_delete); this also clears it from the WAL.
  if (total > 0) scrubDeletedData(db);
  return total;
}

/** Runs `purgeExpired` now and every `intervalMs`, waiting asynchronously for the write lock; returns a stop function. */
export function startRetentionJob(db: Db, retentionDays: number, intervalMs: number, logger: Logger, lockDeadlineMs = 60_000): () => void {
  let running = false;
  let stopped = false;
  const run = async () => {
    if (running || stopped) return;
    running = true;
    try {
      // After a stop the database may be closed: a pending retry then does nothing.
      const removed = await retryWhileBusy(() => (stopped ? 0 : purgeExpired(db, retentionDays)), lockDeadlineMs);
      if (removed > 0) logger.info({ event: "retention_purge", removed }, "purged old conversation data");
    } catch (error) {
      logger.error({ event: "retention_purge_failed", err: (error as Error).message }, "retention purge failed");
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref?.();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * Player memory: each player's conversation is stored (deleted with the player) and the newest messages
 * that fit a character budget are given to the model, across sockets and restarts. Messages older than the
 * retention period are purged by a periodic job.
 */
import type { Db } from "../db/client.ts";
import type { Logger } from "../log.ts";
import type { HistoryMessage } from "../engine/types.ts";
import { appendMessages, deleteMessagesBefore, newestMessages } from "./repo.ts";

// Rows fetched per turn: enough to fill the budget with short messages, never the whole table.
const maxRows = (budgetChars: number) => Math.min(200, Math.max(10, Math.ceil(budgetChars / 40)));

/** The newest messages of a player that fit `budgetChars`, oldest first. */
export function loadHistory(db: Db, playerId: number, budgetChars: number): HistoryMessage[] {
  if (budgetChars <= 0) return [];
  const out: HistoryMessage[] = [];
  let used = 0;
  for (const m of newestMessages(db, playerId, maxRows(budgetChars))) {
    used += m.text.length;
    if (used > budgetChars) break;
    out.push(m);
  }
  return out.reverse();
}

/** Stores one finished turn: the child's words (unless the turn had none) and what was actually sent back. */
export function recordTurn(db: Db, playerId: number, userText: string | null, replyText: string): void {
  const messages: HistoryMessage[] = [];
  if (userText !== null) messages.push({ role: "user", text: userText });
  if (replyText.trim() !== "") messages.push({ role: "assistant", text: replyText });
  appendMessages(db, playerId, messages);
}

/** Deletes conversation data older than `retentionDays`; returns the number of messages removed. */
export function purgeExpired(db: Db, retentionDays: number, now = Date.now()): number {
  return deleteMessagesBefore(db, now - retentionDays * 86_400_000);
}

/** Runs `purgeExpired` now and every `intervalMs`; returns a stop function. */
export function startRetentionJob(db: Db, retentionDays: number, intervalMs: number, logger: Logger): () => void {
  const run = () => {
    try {
      const removed = purgeExpired(db, retentionDays);
      if (removed > 0) logger.info({ event: "retention_purge", removed }, "purged old conversation data");
    } catch (error) {
      logger.error({ event: "retention_purge_failed", err: (error as Error).message }, "retention purge failed");
    }
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * Player memory: each player's conversation is stored (deleted with the player) and the newest messages
 * that fit a character budget are given to the model, across sockets and restarts. Messages older than the
 * retention period are purged by a periodic job. The words are stored encrypted (cipher.ts) on both databases;
 * rows written by older SQLite versions in plain text are still read, and are sealed at the next start
 * (`sealPlainMessages`).
 */

import type { AuditRepo } from "../audit/repo.ts";
import { audit, purgeOldAudit, SYSTEM } from "../audit/service.ts";
import { RETENTION_JOB } from "../cluster/exclusive.ts";
import type { Cluster } from "../cluster/index.ts";
import type { Config } from "../config.ts";
import { retryWhileBusy } from "../db/busy.ts";
import type { Database } from "../db/database.ts";
import { rootCause } from "../db/errors.ts";
import type { Store } from "../db/store.ts";
import type { HistoryMessage } from "../engine/index.ts";
import type { IncidentRepo } from "../incidents/repo.ts";
import type { Logger } from "../log.ts";
import type { TextCipher } from "./cipher.ts";
import type { ConversationRepo, Role } from "./repo.ts";

/** What the conversation service needs: the store, the cipher, and the database (to scrub after deleting). */
/** What the conversations feature needs (the retention job also deletes old incidents). */
export interface ConversationNeeds {
  store: Pick<Store<{ conversations: ConversationRepo; incidents: IncidentRepo }>, "conversations" | "incidents" | "transaction">;
  textCipher: TextCipher;
  database: Pick<Database, "scrubDeletedData">;
  cluster: Pick<Cluster, "exclusive"> | null;
}

// Rows fetched per turn: enough to fill the budget with short messages, never the whole table.
const maxRows = (budgetChars: number) => Math.min(200, Math.max(10, Math.ceil(budgetChars / 40)));

/**
 * Rows one session has already opened, by row id: a row whose stored bytes, player and role are the same as when
 * it was opened opens to the same text (AES-GCM under the same key and authenticated data), so it is not decrypted again.
 * Each load keeps only the rows it used, so it never holds more than one turn's history.
 */
export type OpenedRows = Map<number, { sealed: Uint8Array; playerId: number; role: Role; text: string | null }>;

/** The newest messages of a player that fit `budgetChars`, oldest first; `opened` (one session's) saves decrypting a row twice. */
export async function loadHistory(
  deps: Pick<ConversationNeeds, "store" | "textCipher">,
  playerId: number,
  budgetChars: number,
  opened?: OpenedRows,
): Promise<HistoryMessage[]> {
  if (budgetChars <= 0) return [];
  const out: HistoryMessage[] = [];
  let used = 0;
  const rows = await deps.store.conversations.newest(playerId, maxRows(budgetChars));
  const before = opened && opened.size > 0 ? new Map(opened) : null;
  opened?.clear();
  for (const row of rows) {
    // A row that does not open (tampered with, or moved from another player) is left out, never shown.
    const text = row.sealed ? open(deps.textCipher, row.id, row.sealed, playerId, row.role, before, opened) : row.text;
    if (text === null) continue;
    used += text.length;
    if (used > budgetChars) break;
    out.push({ role: row.role, text });
  }
  return out.reverse();
}

function open(cipher: TextCipher, id: number, sealed: Uint8Array, playerId: number, role: Role, before: OpenedRows | null, opened?: OpenedRows): string | null {
  const known = before?.get(id);
  const same = known !== undefined && known.playerId === playerId && known.role === role && Buffer.compare(known.sealed, sealed) === 0;
  const text = same ? known.text : cipher.open(sealed, playerId, role);
  opened?.set(id, same ? known : { sealed, playerId, role, text });
  return text;
}

/** Stores one finished turn: the child's words (unless the turn had none) and what was actually sent back. */
export async function recordTurn(
  deps: Pick<ConversationNeeds, "store" | "textCipher">,
  playerId: number,
  userText: string | null,
  replyText: string,
): Promise<void> {
  const messages: { role: Role; sealed: Buffer }[] = [];
  if (userText !== null) messages.push({ role: "user", sealed: deps.textCipher.seal(userText, playerId, "user") });
  if (replyText.trim() !== "") messages.push({ role: "assistant", sealed: deps.textCipher.seal(replyText, playerId, "assistant") });
  await deps.store.conversations.append(playerId, messages);
}

/**
 * `recordTurn`, waiting asynchronously (up to `deadlineMs`) while the database is busy (another process holds
 * SQLite's write lock; a PostgreSQL lock timeout), then DatabaseBusy. The turn is written all or nothing, so
 * trying again never stores it twice.
 * @example await saveTurn(deps, playerId, "hi", "Hello!", config.dbLockTimeoutMs)
 */
export function saveTurn(
  deps: Pick<ConversationNeeds, "store" | "textCipher">,
  playerId: number,
  userText: string | null,
  replyText: string,
  deadlineMs: number,
): Promise<void> {
  return retryWhileBusy(() => recordTurn(deps, playerId, userText, replyText), deadlineMs);
}

/** How far back a truncate looks for the reply it cuts (other sockets of the player may have written since). */
const AMEND_LOOKBACK = 10;

/**
 * Cuts one stored reply to what the child heard (`reply`; "" forgets it), waiting while the database is busy as
 * saveTurn does. The reply cut is the newest of the player's last few messages whose text is exactly `whole` (the
 * reply as it was recorded), so a reply that was never stored (data-lite mode, a turn whose save failed) or
 * another socket's reply is never touched. False when there is no such reply.
 * @example await amendReply(deps, playerId, "Once upon a time.", "Once upon a", config.dbLockTimeoutMs)
 */
export function amendReply(
  deps: Pick<ConversationNeeds, "store" | "textCipher">,
  playerId: number,
  whole: string,
  reply: string,
  deadlineMs: number,
): Promise<boolean> {
  const sealed = reply.trim() === "" ? null : deps.textCipher.seal(reply, playerId, "assistant");
  return retryWhileBusy(
    () =>
      deps.store.transaction(async (tx) => {
        for (const row of await tx.conversations.newest(playerId, AMEND_LOOKBACK)) {
          if (row.role !== "assistant") continue;
          const text = row.sealed ? deps.textCipher.open(row.sealed, playerId, "assistant") : row.text;
          if (text === whole) return tx.conversations.replaceMessage(playerId, row.id, "assistant", sealed);
        }
        return false;
      }),
    deadlineMs,
  );
}

/** The retention purge also writes its audit rows, in one transaction with the deletion. */
export interface PurgeNeeds {
  store: Store<{ conversations: ConversationRepo; incidents: IncidentRepo; audit: AuditRepo }>;
  database: Pick<Database, "scrubDeletedData">;
}

/**
 * Deletes conversation data and safety incidents older than `retentionDays`; returns the number of rows removed.
 * Each player whose messages went gets a `player.history_erase` audit row by the `system` actor, at most one per
 * UTC day: the sweep runs every hour, and a child who talks every day would otherwise get a row per sweep.
 */
export async function purgeExpired(deps: PurgeNeeds, retentionDays: number, now = Date.now()): Promise<number> {
  const before = now - retentionDays * 86_400_000;
  const dayBegan = now - (now % 86_400_000);
  const removed = await deps.store.transaction(async (tx) => {
    const touched = await tx.conversations.playersBefore(before);
    // Incidents hold no words, but they name a child and what happened: kept no longer than the conversation.
    const count = (await tx.conversations.deleteBefore(before)) + (await tx.incidents.deleteBefore(before));
    const ids = touched.map((t) => t.playerId);
    const already = new Set(await tx.audit.playersWithRowSince("player.history_erase", SYSTEM.actor.kind, dayBegan, ids));
    for (const { playerId, teamId } of touched) {
      if (!already.has(playerId)) await audit({ store: tx }, teamId, SYSTEM, "player.history_erase", playerId);
    }
    return count;
  });
  if (removed > 0) deps.database.scrubDeletedData();
  return removed;
}

/** Seals every message an older version stored in plain text; returns how many. Run at start. */
export async function sealPlainMessages(deps: Pick<ConversationNeeds, "store" | "textCipher" | "database">): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await deps.store.conversations.plainRows(500);
    if (rows.length === 0) break;
    await deps.store.conversations.seal(rows.map((r) => ({ id: r.id, sealed: deps.textCipher.seal(r.text, r.playerId, r.role) })));
    total += rows.length;
  }
  // The plain text is overwritten in the pages (secure_delete); this also clears it from the WAL.
  if (total > 0) deps.database.scrubDeletedData();
  return total;
}

/**
 * Runs `purgeExpired` now and every `intervalMs`, waiting asynchronously while the database is busy; returns a
 * stop function. With several nodes (PostgreSQL) one node purges at a time: the others skip a round while it
 * holds the job's advisory lock (src/cluster/exclusive.ts).
 */
export function startRetentionJob(
  deps: PurgeNeeds & Pick<ConversationNeeds, "cluster"> & { config: Pick<Config, "auditRetentionDays"> },
  retentionDays: number,
  intervalMs: number,
  logger: Logger,
  lockDeadlineMs = 60_000,
): () => void {
  const purgeOnce = async () => (await purgeExpired(deps, retentionDays)) + (await purgeOldAudit(deps, deps.config.auditRetentionDays));
  const purge = () => retryWhileBusy(() => (stopped ? 0 : purgeOnce()), lockDeadlineMs);
  let running = false;
  let stopped = false;
  const run = async () => {
    if (running || stopped) return;
    running = true;
    try {
      // After a stop the database may be closed: a pending retry then does nothing.
      const removed = deps.cluster ? await deps.cluster.exclusive(RETENTION_JOB, intervalMs, purge) : await purge();
      if (removed === null) logger.debug({ event: "retention_purge_skipped" }, "another node purges (or just did)");
      else if (removed > 0) logger.info({ event: "retention_purge", removed }, "purged old conversation data");
    } catch (error) {
      if (!stopped) logger.error({ event: "retention_purge_failed", err: describeError(error) }, "retention purge failed");
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

// The driver's message, never drizzle's wrapper (which repeats the query's parameters).
function describeError(error: unknown): string {
  const cause = rootCause(error);
  return cause instanceof Error ? cause.message : String(cause);
}

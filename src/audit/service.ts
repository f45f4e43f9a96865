/**
 * The audit trail of children's data: who read, exported, erased or deleted a player's data, or changed their
 * consent, and when. Rules it keeps:
 * - a row never holds content: an actor (kind and pk), an action, a player pk and the request's id;
 * - rows are written in the same transaction as the change they record (a consent change, an erasure, a
 *   deletion), so a change without its row, or a row without its change, cannot be;
 * - a read's row (`player.read`) is group-committed with the rows of concurrent reads (batch.ts): the response
 *   waits until its own row has committed, as with a row of its own, for a fraction of the cost;
 * - rows outlive the player they name (no foreign key) and are listed only to the player's team, newest first;
 * - rows older than HOOT_AUDIT_RETENTION_DAYS are purged with the conversations, so the table cannot grow without
 *   end however often a player is read.
 */
import type { TeamCaller } from "../auth/index.ts";
import type { Config } from "../config.ts";
import { isBusyError, retryWhileBusy } from "../db/busy.ts";
import type { AuditRow } from "../db/schema.ts";
import type { Store } from "../db/store.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import type { Logger } from "../log.ts";
import { createGroupCommit, type GroupCommit } from "./batch.ts";
import type { AuditEntry, AuditList } from "./model.ts";
import type { ActorKind, AuditRepo, NewAuditRow } from "./repo.ts";

export type AuditAction = "player.read" | "player.export" | "player.consent" | "player.history_erase" | "player.delete";

/** Who acted, as a row records it. */
export interface Actor {
  kind: ActorKind;
  pk: number | null;
}

/** Who acted and on which request: what every audited call is handed. */
export interface AuditContext {
  actor: Actor;
  requestId: string | null;
}

/** What the audit feature needs. */
export interface AuditNeeds {
  store: Pick<Store<{ audit: AuditRepo }>, "audit">;
}

/** Hoot itself (the retention purge, an admin command), with no request. */
export const SYSTEM: AuditContext = { actor: { kind: "system", pk: null }, requestId: null };

/**
 * The audit context of an API caller on a request whose response carries `x-request-id`.
 * @example auditContext(caller, set) // { actor: { kind: "developer", pk: 3 }, requestId: "…" }
 */
export function auditContext(caller: Exclude<TeamCaller, { kind: "player" }>, set: { headers: Record<string, unknown> }): AuditContext {
  const actor: Actor = caller.kind === "developer" ? { kind: "developer", pk: caller.userId } : { kind: "service_account", pk: caller.serviceAccountId };
  return { actor, requestId: requestIdOf(set) };
}

/** The request id the HTTP plugin put on the response (the caller's well-formed `x-request-id`, or a fresh one). */
export function requestIdOf(set: { headers: Record<string, unknown> }): string | null {
  const id = set.headers["x-request-id"];
  return typeof id === "string" ? id : null;
}

/** Writes one audit row (inside the caller's transaction when `deps.store` is one). */
export function audit(deps: AuditNeeds, teamId: number, context: AuditContext, action: AuditAction, playerId: number | null): Promise<void> {
  return deps.store.audit.insert({ teamId, actorKind: context.actor.kind, actorPk: context.actor.pk, action, playerId, requestId: context.requestId });
}

/** What writing a row off the request's path needs: the lock deadline, and a log for a row that could not be written. */
export type BackgroundAuditNeeds = AuditNeeds & { config: Pick<Config, "dbLockTimeoutMs">; logger: Pick<Logger, "error"> };

/**
 * Writes a read's row (`player.read`, which shows no words) through the group commit (batch.ts): with the rows of
 * concurrent reads, in one transaction on the next turn of the event loop; it resolves once the row has
 * committed. While another connection holds the database's write lock the read keeps answering, as reads do,
 * and the row is written in the background (up to HOOT_DB_LOCK_TIMEOUT_MS); a row that still cannot be written
 * is logged with its ids. With the queue full, the row is written on its own, at once.
 */
export async function auditRead(deps: BackgroundAuditNeeds, teamId: number, context: AuditContext, action: AuditAction, playerId: number): Promise<void> {
  const row = { teamId, actorKind: context.actor.kind, actorPk: context.actor.pk, action, playerId, requestId: context.requestId };
  const queued = groupCommitOf(deps).write(row);
  if (queued !== null) {
    const outcome = await queued;
    if (outcome.kind === "failed") throw outcome.error;
    return;
  }
  try {
    await deps.store.audit.insert(row);
  } catch (error) {
    if (!isBusyError(error)) throw error;
    void retryWhileBusy(() => deps.store.audit.insert(row), deps.config.dbLockTimeoutMs).catch((late: unknown) => notWritten(deps, row, late));
  }
}

// One group commit per audit repository (the app has one; each test server its own).
const groupCommits = new WeakMap<object, GroupCommit>();

function groupCommitOf(deps: BackgroundAuditNeeds): GroupCommit {
  let group = groupCommits.get(deps.store.audit);
  if (group === undefined) {
    group = createGroupCommit(deps.store.audit, { lockDeadlineMs: deps.config.dbLockTimeoutMs, notWritten: (row, error) => notWritten(deps, row, error) });
    groupCommits.set(deps.store.audit, group);
  }
  return group;
}

function notWritten(deps: BackgroundAuditNeeds, row: NewAuditRow, error: unknown): void {
  deps.logger.error(
    { event: "audit_not_written", action: row.action, team: row.teamId, player: row.playerId, err: error instanceof Error ? error.message : String(error) },
    "an audit row could not be written",
  );
}

/** Deletes audit rows older than `days`; returns how many. */
export function purgeOldAudit(deps: AuditNeeds, days: number, now = Date.now()): Promise<number> {
  return deps.store.audit.deleteBefore(now - days * 86_400_000);
}

/** One page of the team's audit rows, newest first, optionally of one player. */
export async function listTeamAudit(deps: AuditNeeds, teamId: number, query: { after?: string; limit?: number; player_pk?: string }): Promise<AuditList> {
  const limit = query.limit ?? 100;
  const before = decodeCursor("a", query.after);
  const playerId = query.player_pk === undefined ? undefined : Number(query.player_pk);
  const rows = await deps.store.audit.list(teamId, { before, limit: limit + 1, ...(playerId === undefined ? {} : { playerId }) });
  const page = rows.slice(0, limit);
  return { audit: page.map(show), next: rows.length > limit ? encodeCursor("a", page[page.length - 1]!.id) : null };
}

function show(row: AuditRow): AuditEntry {
  return {
    at: new Date(row.at).toISOString(),
    actor: { kind: row.actorKind, pk: row.actorPk },
    action: row.action,
    player_pk: row.playerId,
    request_id: row.requestId,
  };
}

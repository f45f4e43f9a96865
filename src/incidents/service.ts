/**
 * Safety incidents: every escalation a policy asked for (a child disclosing self-harm or abuse, grooming
 * in a model's reply, a session that kept testing boundaries), kept so the team's app can tell a parent.
 *
 * Rules it keeps:
 * - an incident holds who (player), where (session), what kind (category), what was done (escalate), which
 *   way (input or output), under which policy, and when; never the child's words or the model's;
 * - reads are scoped to the caller's team; pages go newest first, and a cursor stays valid while new
 *   incidents arrive (it marks a position in the past, not an offset);
 * - recording never fails or slows a turn: the write runs off the turn's path and, while another connection
 *   holds the write lock, is retried asynchronously up to HOOT_DB_LOCK_TIMEOUT_MS; a write that still fails
 *   (a lock held past that, a player deleted mid-turn) is logged and counted in
 *   `hoot_safety_incidents_not_recorded_total`;
 * - deleting a player deletes their incidents in the same transaction as their conversation.
 */
// prom-client's own module, not its index (which also loads the Pushgateway client: node:http, https, zlib).
import Counter from "prom-client/lib/counter";
import type { Deps } from "../deps.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../log.ts";
import { retryWhileBusy } from "../db/busy.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import type { SafetyIncident } from "../db/schema.ts";
import { deleteIncidentsOfPlayer, insertIncident, listIncidents, type NewIncident } from "./repo.ts";
import type { IncidentBody, IncidentList } from "./model.ts";

const NOT_RECORDED = "hoot_safety_incidents_not_recorded_total";

/**
 * The function a session calls to record an incident: it returns at once and writes in the background,
 * retrying while the database is busy; a failure is logged (ids and category only) and counted, never thrown.
 * @example const record = incidentRecorder(deps, logger); record({ teamId, playerId, ... })
 */
export function incidentRecorder(deps: Pick<Deps, "db" | "config" | "metrics">, logger: Pick<Logger, "info" | "error">): (incident: NewIncident) => void {
  const failures =
    (deps.metrics.registry.getSingleMetric(NOT_RECORDED) as Counter | undefined) ??
    new Counter({ name: NOT_RECORDED, help: "Safety incidents that could not be written (database busy past the lock timeout, or another error)", registers: [deps.metrics.registry] });
  return (incident) => {
    void retryWhileBusy(() => insertIncident(deps.db, incident), deps.config.dbLockTimeoutMs).then(
      () => logger.info({ event: "safety_incident", player: incident.playerId, session: incident.sessionId, category: incident.category, direction: incident.direction }, "safety incident recorded"),
      (error: unknown) => {
        failures.inc();
        logger.error({ event: "safety_incident_not_recorded", player: incident.playerId, category: incident.category, err: (error as Error).message }, "safety incident could not be recorded");
      },
    );
  };
}

/** One page of the team's incidents, newest first; `after` is the previous page's `next`. */
export function listTeamIncidents(deps: Pick<Deps, "db">, teamId: number, query: { after?: string; limit?: number; player_pk?: string }): IncidentList {
  const limit = query.limit ?? 100;
  const rows = listIncidents(deps.db, teamId, { before: decodeCursor("i", query.after), limit: limit + 1, playerId: query.player_pk === undefined ? undefined : Number(query.player_pk) });
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor("i", page[page.length - 1]!.id) : null;
  return { incidents: page.map(show), next };
}

/** Deletes a player's incidents (called inside the player purge's transaction). */
export function forgetPlayerIncidents(db: Db, playerId: number): void {
  deleteIncidentsOfPlayer(db, playerId);
}

function show(row: SafetyIncident): IncidentBody {
  return {
    pk: row.id,
    player_pk: row.playerId,
    session_id: row.sessionId,
    category: row.category,
    action: row.action,
    direction: row.direction,
    policy: row.policy,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

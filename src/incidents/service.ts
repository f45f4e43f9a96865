/**
 * Safety incidents: every escalation a policy asked for (a child disclosing self-harm or abuse, grooming
 * in a model's reply, a session that kept testing boundaries), kept so the team's app can tell a parent.
 *
 * Rules it keeps:
 * - an incident holds who (player), where (session), what kind (category), what was done (escalate), which
 *   way (input or output), under which policy, and when; never the child's words or the model's;
 * - reads are scoped to the caller's team; pages go newest first, and a cursor stays valid while new
 *   incidents arrive (it marks a position in the past, not an offset);
 * - recording never fails a turn: a write that fails (a busy database, a player deleted mid-turn) is logged;
 * - deleting a player deletes their incidents in the same transaction as their conversation.
 */
import type { Deps } from "../deps.ts";
import type { Logger } from "../log.ts";
import { InvalidRequest } from "../errors.ts";
import type { SafetyIncident } from "../db/schema.ts";
import { rootCause } from "../db/errors.ts";
import type { NewIncident } from "./repo.ts";
import type { IncidentBody, IncidentList } from "./model.ts";

/** Records an incident; logs (ids and category only) instead of throwing. Resolves once it is written (or not). */
export async function recordIncident(deps: Pick<Deps, "store">, logger: Pick<Logger, "info" | "error">, incident: NewIncident): Promise<void> {
  try {
    await deps.store.incidents.insert(incident);
    logger.info({ event: "safety_incident", player: incident.playerId, session: incident.sessionId, category: incident.category, direction: incident.direction }, "safety incident recorded");
  } catch (error) {
    const cause = rootCause(error);
    logger.error(
      { event: "safety_incident_not_recorded", player: incident.playerId, category: incident.category, err: cause instanceof Error ? cause.message : String(cause) },
      "safety incident could not be recorded",
    );
  }
}

/** One page of the team's incidents, newest first; `after` is the previous page's `next`. */
export async function listTeamIncidents(deps: Pick<Deps, "store">, teamId: number, query: { after?: string; limit?: number; player_pk?: string }): Promise<IncidentList> {
  const limit = query.limit ?? 100;
  const rows = await deps.store.incidents.list(teamId, { before: decodeCursor(query.after), limit: limit + 1, playerId: query.player_pk === undefined ? undefined : Number(query.player_pk) });
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor(page[page.length - 1]!.id) : null;
  return { incidents: page.map(show), next };
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

// Opaque to clients; wraps the last id shown, so the next page starts just below it.
function encodeCursor(id: number): string {
  return Buffer.from(`i:${id}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === "") return 0;
  const match = /^i:(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw new InvalidRequest('The "after" cursor is not one this server gave out.', "invalid_cursor");
  return Number(match[1]);
}

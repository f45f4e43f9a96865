/**
 * Safety incidents: every escalation a policy asked for (a child disclosing self-harm or abuse, grooming
 * in a model's reply, a session that kept testing boundaries), kept so the team's app can tell a parent.
 *
 * Rules it keeps:
 * - an incident holds who (player), where (session), what kind (category), what was done (escalate), which
 *   way (input or output), under which policy, and when; never the child's words or the model's;
 * - reads are scoped to the caller's team; pages go newest first, and a cursor stays valid while new
 *   incidents arrive (it marks a position in the past, not an offset);
 * - recording never fails a turn, and a busy database never holds one up: a turn waits at most for the first
 *   attempt (one statement), and while another connection holds the lock the write is retried in the
 *   background up to HOOT_DB_LOCK_TIMEOUT_MS; a write that still fails (a lock held past that, a player
 *   deleted mid-turn) is logged and counted in `hoot_safety_incidents_not_recorded_total`;
 * - deleting a player deletes their incidents in the same transaction as their conversation;
 * - one player's incidents are written at most HOOT_INCIDENTS_PER_PLAYER_PER_MINUTE a minute (counted by each
 *   node); past it they are counted in the `repeats` of that player's latest row instead of one row each, so
 *   a child (or a script) provoking escalations cannot fill the database;
 * - incidents older than HOOT_RETENTION_DAYS are purged with the conversations (conversations/service.ts).
 */
// prom-client's own module, not its index (which also loads the Pushgateway client: node:http, https, zlib).
import Counter from "prom-client/lib/counter";
import type { Config } from "../config.ts";
import { retryWhileBusy } from "../db/busy.ts";
import { rootCause } from "../db/errors.ts";
import type { SafetyIncident } from "../db/schema.ts";
import type { Store } from "../db/store.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { IncidentRepo, NewIncident } from "./repo.ts";

/** What the incidents feature needs. */
export interface IncidentNeeds {
  store: Pick<Store<{ incidents: IncidentRepo }>, "incidents">;
}
/** Recording incidents also needs the cap, the lock timeout and the metrics registry. */
export type IncidentRecorderNeeds = IncidentNeeds & {
  config: Pick<Config, "incidentsPerPlayerPerMinute" | "dbLockTimeoutMs">;
  metrics: Pick<Metrics, "registry">;
};

import type { IncidentBody, IncidentList } from "./model.ts";

const NOT_RECORDED = "hoot_safety_incidents_not_recorded_total";

/**
 * The function a session calls to record an incident. It never throws or rejects; the promise it returns
 * settles after the first attempt, so a turn may wait for one statement (the incident is then listed by the
 * time the turn ends) but never for the retries: while the database is busy (SQLite: another process holds
 * the write lock; PostgreSQL: a lock timeout, deadlock or serialization failure) the write goes on in the
 * background, retried by retryWhileBusy up to HOOT_DB_LOCK_TIMEOUT_MS. A failure is logged (ids and category
 * only) and counted.
 * @example const record = incidentRecorder(deps, logger); await record({ teamId, playerId, ... })
 */
export function incidentRecorder(deps: IncidentRecorderNeeds, logger: Pick<Logger, "info" | "error">): (incident: NewIncident) => Promise<void> {
  const failures =
    (deps.metrics.registry.getSingleMetric(NOT_RECORDED) as Counter | undefined) ??
    new Counter({
      name: NOT_RECORDED,
      help: "Safety incidents that could not be written (database busy past the lock timeout, or another error)",
      registers: [deps.metrics.registry],
    });
  const cap = deps.config.incidentsPerPlayerPerMinute;
  // Per player: when this minute began, rows written in it, and incidents past the cap not yet counted.
  const windows = new Map<number, { start: number; written: number; uncounted: number; counting: Promise<void> }>();
  const windowOf = (playerId: number, now: number) => {
    let window = windows.get(playerId);
    if (window && now - window.start < 60_000) return window;
    if (windows.size >= 10_000) for (const [id, old] of windows) if (now - old.start >= 60_000 && old.uncounted === 0) windows.delete(id);
    window = { start: now, written: 0, uncounted: 0, counting: Promise.resolve() };
    windows.set(playerId, window);
    return window;
  };
  // Incidents past the cap: added to the latest row's `repeats`, several at once while a write is under way.
  const countRepeat = (incident: NewIncident, window: { uncounted: number; counting: Promise<void> }): Promise<void> => {
    window.uncounted++;
    window.counting = window.counting.then(async () => {
      const count = window.uncounted;
      if (count === 0) return;
      window.uncounted = 0;
      try {
        await retryWhileBusy(() => deps.store.incidents.addRepeats(incident.playerId, count), deps.config.dbLockTimeoutMs);
      } catch (error) {
        failures.inc(count);
        const cause = rootCause(error);
        logger.error(
          {
            event: "safety_incident_not_recorded",
            player: incident.playerId,
            category: incident.category,
            err: cause instanceof Error ? cause.message : String(cause),
          },
          "safety incident could not be counted",
        );
      }
    });
    return window.counting;
  };
  return (incident) => {
    const window = windowOf(incident.playerId, Date.now());
    if (window.written >= cap) return countRepeat(incident, window);
    window.written++;
    let firstAttemptDone!: () => void;
    const firstAttempt = new Promise<void>((resolve) => (firstAttemptDone = resolve));
    const attempt = async () => {
      try {
        await deps.store.incidents.insert(incident);
      } finally {
        firstAttemptDone();
      }
    };
    void retryWhileBusy(attempt, deps.config.dbLockTimeoutMs)
      .then(
        () =>
          logger.info(
            { event: "safety_incident", player: incident.playerId, session: incident.sessionId, category: incident.category, direction: incident.direction },
            "safety incident recorded",
          ),
        (error: unknown) => {
          failures.inc();
          const cause = rootCause(error);
          logger.error(
            {
              event: "safety_incident_not_recorded",
              player: incident.playerId,
              category: incident.category,
              err: cause instanceof Error ? cause.message : String(cause),
            },
            "safety incident could not be recorded",
          );
        },
      )
      .finally(firstAttemptDone);
    return firstAttempt;
  };
}

/** One page of the team's incidents, newest first; `after` is the previous page's `next`. */
export async function listTeamIncidents(
  deps: IncidentNeeds,
  teamId: number,
  query: { after?: string; limit?: number; player_pk?: string },
): Promise<IncidentList> {
  const limit = query.limit ?? 100;
  const rows = await deps.store.incidents.list(teamId, {
    before: decodeCursor("i", query.after),
    limit: limit + 1,
    playerId: query.player_pk === undefined ? undefined : Number(query.player_pk),
  });
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor("i", page[page.length - 1]!.id) : null;
  return { incidents: page.map(showIncident), next };
}

/** An incident as the API shows it. */
export function showIncident(row: SafetyIncident): IncidentBody {
  return {
    pk: row.id,
    player_pk: row.playerId,
    session_id: row.sessionId,
    category: row.category,
    action: row.action,
    direction: row.direction,
    policy: row.policy,
    ...(row.repeats > 0 ? { repeats: row.repeats } : {}),
    created_at: new Date(row.createdAt).toISOString(),
  };
}

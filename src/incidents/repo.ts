/** Every query about safety incidents. Reads are scoped by team; nothing here reads or writes any text. */
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { safetyIncidents, type SafetyIncident } from "../db/schema.ts";

// A type alias (not an interface), so it is assignable to bun:sqlite's binding record.
export type NewIncident = {
  teamId: number;
  playerId: number;
  sessionId: string;
  category: string;
  action: string;
  direction: "input" | "output";
  policy: string;
};

/** Records one incident (hot path: a prepared statement). */
export function insertIncident(db: Db, incident: NewIncident): void {
  insertStatement(db).run(incident);
}

/** Up to `limit` incidents of a team, newest first, below id `before` (0: from the newest), optionally of one player. */
export function listIncidents(db: Db, teamId: number, options: { before: number; limit: number; playerId?: number }): SafetyIncident[] {
  const where: SQL[] = [eq(safetyIncidents.teamId, teamId)];
  if (options.before > 0) where.push(lt(safetyIncidents.id, options.before));
  if (options.playerId !== undefined) where.push(eq(safetyIncidents.playerId, options.playerId));
  return db
    .select()
    .from(safetyIncidents)
    .where(and(...where))
    .orderBy(desc(safetyIncidents.id))
    .limit(options.limit)
    .all();
}

/** Deletes every incident of a player (player deletion). */
export function deleteIncidentsOfPlayer(db: Db, playerId: number): void {
  deleteOfPlayer(db).run({ playerId });
}

const insertStatement = prepared((db) =>
  db.$client.query<never, NewIncident>(
    `INSERT INTO safety_incidents (team_id, player_id, session_id, category, action, direction, policy)
     VALUES ($teamId, $playerId, $sessionId, $category, $action, $direction, $policy)`,
  ),
);

const deleteOfPlayer = prepared((db) => db.$client.query<never, { playerId: number }>("DELETE FROM safety_incidents WHERE player_id = $playerId"));


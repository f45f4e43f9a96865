/** The incidents repository (repo.ts) on SQLite. */
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { safetyIncidents } from "../db/schema.ts";
import { irrelevant } from "../db/sqlite/read-cache.ts";
import type { Synchronous } from "../db/store.ts";
import type { IncidentRepo, NewIncident } from "./repo.ts";

/** Safety incidents on SQLite. */
export function sqliteIncidentRepo(db: Db): Synchronous<IncidentRepo> {
  // Incidents are never read through the read cache, so recording one does not empty it (read-cache.ts).
  return {
    insert: (incident) => void irrelevant(db, () => insertStatement(db).run(incident)),
    list: (teamId, options) => {
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
    },
    deleteOfPlayer: (playerId) => void deleteOfPlayer(db).run({ playerId }),
    addRepeats: (playerId, count) => void irrelevant(db, () => addRepeats(db).run({ playerId, count })),
    deleteBefore: (before) => deleteBefore(db).run({ before }).changes,
  };
}

const insertStatement = prepared((db) =>
  db.$client.query<never, NewIncident>(
    `INSERT INTO safety_incidents (team_id, player_id, session_id, category, action, direction, policy)
     VALUES ($teamId, $playerId, $sessionId, $category, $action, $direction, $policy)`,
  ),
);

const addRepeats = prepared((db) =>
  db.$client.query<never, { playerId: number; count: number }>(
    "UPDATE safety_incidents SET repeats = repeats + $count WHERE id = (SELECT MAX(id) FROM safety_incidents WHERE player_id = $playerId)",
  ),
);

const deleteBefore = prepared((db) => db.$client.query<never, { before: number }>("DELETE FROM safety_incidents WHERE created_at < $before"));

const deleteOfPlayer = prepared((db) => db.$client.query<never, { playerId: number }>("DELETE FROM safety_incidents WHERE player_id = $playerId"));

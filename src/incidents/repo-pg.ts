/** The incidents repository (repo.ts) on PostgreSQL. */
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { execute, type PgDb } from "../db/pg/client.ts";
import { safetyIncidents } from "../db/pg/schema.ts";
import type { IncidentRepo } from "./repo.ts";

const INT4_MAX = 2_147_483_647;

/** Safety incidents on PostgreSQL. */
export function pgIncidentRepo(db: PgDb): IncidentRepo {
  return {
    async insert(i) {
      await execute(
        db,
        "INSERT INTO safety_incidents (team_id, player_id, session_id, category, action, direction, policy) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [i.teamId, i.playerId, i.sessionId, i.category, i.action, i.direction, i.policy],
      );
    },
    list: async (teamId, options) => {
      const where: SQL[] = [eq(safetyIncidents.teamId, teamId)];
      if (options.before > 0) where.push(lt(safetyIncidents.id, options.before));
      // A player id past the column's range names no player (PostgreSQL would refuse the comparison).
      if (options.playerId !== undefined) {
        if (options.playerId > INT4_MAX) return [];
        where.push(eq(safetyIncidents.playerId, options.playerId));
      }
      return db
        .select()
        .from(safetyIncidents)
        .where(and(...where))
        .orderBy(desc(safetyIncidents.id))
        .limit(options.limit);
    },
    deleteOfPlayer: async (playerId) => void (await execute(db, "DELETE FROM safety_incidents WHERE player_id = $1", [playerId])),
    addRepeats: async (playerId, count) =>
      void (await execute(db, "UPDATE safety_incidents SET repeats = repeats + $2 WHERE id = (SELECT MAX(id) FROM safety_incidents WHERE player_id = $1)", [
        playerId,
        count,
      ])),
    deleteBefore: async (before) =>
      (await db.delete(safetyIncidents).where(lt(safetyIncidents.createdAt, before)).returning({ id: safetyIncidents.id })).length,
  };
}

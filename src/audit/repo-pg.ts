/** The audit repository (repo.ts) on PostgreSQL. */
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { execute, type PgDb, query } from "../db/pg/client.ts";
import { audit } from "../db/pg/schema.ts";
import type { AuditRepo } from "./repo.ts";

const INT4_MAX = 2_147_483_647;

/** The audit trail on PostgreSQL. */
export function pgAuditRepo(db: PgDb): AuditRepo {
  return {
    async insert(r) {
      await execute(db, "INSERT INTO audit (team_id, actor_kind, actor_pk, action, player_id, request_id) VALUES ($1, $2, $3, $4, $5, $6)", [
        r.teamId,
        r.actorKind,
        r.actorPk,
        r.action,
        r.playerId,
        r.requestId,
      ]);
    },
    // One multi-row INSERT (one statement, so all rows or none); batch.ts keeps it under PostgreSQL's 65,535 parameters.
    async insertMany(rows) {
      if (rows.length === 0) return;
      const values = rows.map((_, i) => `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, $${i * 6 + 6})`);
      const params = rows.flatMap((r) => [r.teamId, r.actorKind, r.actorPk, r.action, r.playerId, r.requestId]);
      await execute(db, `INSERT INTO audit (team_id, actor_kind, actor_pk, action, player_id, request_id) VALUES ${values.join(", ")}`, params);
    },
    list: async (teamId, options) => {
      const where: SQL[] = [eq(audit.teamId, teamId)];
      if (options.before > 0) where.push(lt(audit.id, options.before));
      // A player id past the column's range names no player (PostgreSQL would refuse the comparison).
      if (options.playerId !== undefined) {
        if (options.playerId > INT4_MAX) return [];
        where.push(eq(audit.playerId, options.playerId));
      }
      return db
        .select()
        .from(audit)
        .where(and(...where))
        .orderBy(desc(audit.id))
        .limit(options.limit);
    },
    async playersWithRowSince(action, actorKind, since, playerIds) {
      if (playerIds.length === 0) return [];
      const rows = await query<{ playerId: number }>(
        db,
        `SELECT DISTINCT player_id AS "playerId" FROM audit
          WHERE at >= $1 AND action = $2 AND actor_kind = $3 AND player_id = ANY($4::int[])`,
        [since, action, actorKind, playerIds],
      );
      return rows.map((row) => row.playerId);
    },
    deleteBefore: (before) => execute(db, "DELETE FROM audit WHERE at < $1", [before]),
  };
}

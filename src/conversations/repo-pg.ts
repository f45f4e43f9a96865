/** The conversations repository (repo.ts) on PostgreSQL: one statement per call, so no call needs a transaction of its own. */
import { execute, type PgDb, query } from "../db/pg/client.ts";
import type { ConversationRepo, Role, StoredRow } from "./repo.ts";

/** Stored conversations on PostgreSQL. */
export function pgConversationRepo(db: PgDb): ConversationRepo {
  return {
    // id is a bigint (read as a string by Bun.SQL): ::float8 keeps it a number, exact below 2^53.
    newest: (playerId, limit) =>
      query<StoredRow>(
        db,
        "SELECT id::float8 AS id, role, text, text_enc AS sealed FROM conversation_messages WHERE player_id = $1 ORDER BY id DESC LIMIT $2",
        [playerId, limit],
      ),
    ofPlayer: (playerId, after, limit) =>
      query<StoredRow & { createdAt: number }>(
        db,
        `SELECT id::float8 AS id, role, text, text_enc AS sealed, created_at::float8 AS "createdAt"
           FROM conversation_messages WHERE player_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
        [playerId, after, limit],
      ),
    async append(playerId, messages) {
      if (messages.length === 0) return;
      // One multi-row INSERT: atomic on its own, one round trip.
      const values = messages.map((_, i) => `($1, $${i * 2 + 2}, '', $${i * 2 + 3})`).join(", ");
      await execute(db, `INSERT INTO conversation_messages (player_id, role, text, text_enc) VALUES ${values}`, [
        playerId,
        ...messages.flatMap((m) => [m.role, m.sealed]),
      ]);
    },
    async replaceMessage(playerId, id, role, sealed) {
      const changed =
        sealed === null
          ? await execute(db, "DELETE FROM conversation_messages WHERE id = $1 AND player_id = $2 AND role = $3", [id, playerId, role])
          : await execute(db, "UPDATE conversation_messages SET text = '', text_enc = $4 WHERE id = $1 AND player_id = $2 AND role = $3", [
              id,
              playerId,
              role,
              sealed,
            ]);
      return changed > 0;
    },
    playersBefore: (cutoffMs) =>
      query<{ playerId: number; teamId: number }>(
        db,
        `SELECT p.id AS "playerId", p.team_id AS "teamId" FROM players p
          WHERE p.id IN (SELECT DISTINCT player_id FROM conversation_messages WHERE created_at < $1) ORDER BY p.id`,
        [cutoffMs],
      ),
    deleteBefore: (cutoffMs) => execute(db, "DELETE FROM conversation_messages WHERE created_at < $1", [cutoffMs]),
    deleteOfPlayer: async (playerId) => void (await execute(db, "DELETE FROM conversation_messages WHERE player_id = $1", [playerId])),
    plainRows: (limit) =>
      query<{ id: number; playerId: number; role: Role; text: string }>(
        db,
        `SELECT id::float8 AS id, player_id AS "playerId", role, text FROM conversation_messages WHERE text_enc IS NULL ORDER BY id LIMIT $1`,
        [limit],
      ),
    async seal(rows) {
      if (rows.length === 0) return;
      // One statement over parallel arrays: all rows or none.
      await execute(
        db,
        "UPDATE conversation_messages m SET text = '', text_enc = v.sealed FROM unnest($1::bigint[], $2::bytea[]) AS v(id, sealed) WHERE m.id = v.id",
        [rows.map((r) => r.id), rows.map((r) => r.sealed)],
      );
    },
  };
}

/** The players repository (repo.ts) on PostgreSQL; the hot paths are one plain statement each. */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { execute, type PgDb, query } from "../db/pg/client.ts";
import { players } from "../db/pg/schema.ts";
import type { Player } from "../db/schema.ts";
import type { PlayerRepo } from "./repo.ts";

// Column list in the row type's names: `created_at` is a bigint, which Bun.SQL reads as a string.
const INT4_MAX = 2_147_483_647;

const PLAYER_COLUMNS = `id, team_id AS "teamId", external_id AS "externalId", federated_id_enc AS "federatedIdEnc",
  federated_id_hash AS "federatedIdHash", version, created_at::float8 AS "createdAt", consent,
  consent_updated_at::float8 AS "consentUpdatedAt"`;

/** Players on PostgreSQL. */
export function pgPlayerRepo(db: PgDb): PlayerRepo {
  const one = async <T>(rows: Promise<T[]>): Promise<T | null> => (await rows)[0] ?? null;
  return {
    insert: async (values) =>
      (
        await query<Player>(
          db,
          `INSERT INTO players (team_id, external_id, federated_id_enc, federated_id_hash) VALUES ($1, $2, $3, $4) RETURNING ${PLAYER_COLUMNS}`,
          [values.teamId, values.externalId, values.federatedIdEnc, values.federatedIdHash],
        )
      )[0]!,
    // A cursor past the id column's range names no player (PostgreSQL would refuse the comparison).
    list: async (teamId, after, limit) =>
      after > INT4_MAX
        ? []
        : db
            .select()
            .from(players)
            .where(and(eq(players.teamId, teamId), gt(players.id, after)))
            .orderBy(asc(players.id))
            .limit(limit),
    findInTeam: (teamId, id) => one(query<Player>(db, `SELECT ${PLAYER_COLUMNS} FROM players WHERE id = $1 AND team_id = $2`, [id, teamId])),
    findByFederatedHash: (hash) => one(query<Player>(db, `SELECT ${PLAYER_COLUMNS} FROM players WHERE federated_id_hash = $1`, [hash])),
    state: (id) => one(query<{ version: number; teamId: number }>(db, `SELECT version, team_id AS "teamId" FROM players WHERE id = $1`, [id])),
    tokenState: (id, serviceAccountId) =>
      one(
        query<{ version: number; teamId: number; serviceAccountTeamId: number | null }>(
          db,
          `SELECT p.version, p.team_id AS "teamId", (SELECT team_id FROM service_accounts WHERE id = $2) AS "serviceAccountTeamId"
             FROM players p WHERE p.id = $1`,
          [id, serviceAccountId],
        ),
      ),
    updateExternalId: (teamId, id, externalId) =>
      one(
        db
          .update(players)
          .set({ externalId })
          .where(and(eq(players.id, id), eq(players.teamId, teamId)))
          .returning(),
      ),
    replaceFederatedId: (teamId, id, federatedIdEnc, federatedIdHash) =>
      one(
        db
          .update(players)
          .set({ federatedIdEnc, federatedIdHash, version: sql`${players.version} + 1` })
          .where(and(eq(players.id, id), eq(players.teamId, teamId)))
          .returning(),
      ),
    setConsent: (teamId, id, consent, at) =>
      one(
        db
          .update(players)
          .set({ consent, consentUpdatedAt: at })
          .where(and(eq(players.id, id), eq(players.teamId, teamId)))
          .returning(),
      ),
    consentState: (id) =>
      id > INT4_MAX
        ? Promise.resolve(null)
        : one(
            query<{ consent: Player["consent"]; requireConsent: boolean }>(
              db,
              `SELECT p.consent, t.require_consent AS "requireConsent" FROM players p JOIN teams t ON t.id = p.team_id WHERE p.id = $1`,
              [id],
            ),
          ),
    idsOfTeam: async (teamId) => (await db.select({ id: players.id }).from(players).where(eq(players.teamId, teamId))).map((row) => row.id),
    delete: async (teamId, id) => (await execute(db, "DELETE FROM players WHERE id = $1 AND team_id = $2", [id, teamId])) > 0,
  };
}

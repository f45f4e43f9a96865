/** The players repository (repo.ts) on SQLite: synchronous inside, prepared statements on the hot paths. */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { type Player, players } from "../db/schema.ts";
import { readCache } from "../db/sqlite/read-cache.ts";
import type { Synchronous } from "../db/store.ts";
import type { PlayerRepo } from "./repo.ts";

/** Players on SQLite. */
export function sqlitePlayerRepo(db: Db): Synchronous<PlayerRepo> {
  return {
    insert: (values) => insertStatement(db).get(values)!,
    list: (teamId, after, limit) => listStatement(db).all({ teamId, after, limit }),
    // GET /api/players/{pk} and the token checks below: answered from the read cache while the database has not changed.
    findInTeam: (teamId, id) =>
      readCache(db).read(`p:${teamId}:${id}`, () => {
        const row = playerInTeam(db).get({ id, teamId });
        return row ? { ...row, federatedIdEnc: Buffer.from(row.federatedIdEnc.buffer, row.federatedIdEnc.byteOffset, row.federatedIdEnc.byteLength) } : null;
      }),
    findByFederatedHash: (hash) => playerByHash(db).get({ hash }) ?? null,
    state: (id) => playerVersion(db).get({ id }) ?? null,
    tokenState: (id, serviceAccountId) =>
      readCache(db).read(`pt:${id}:${serviceAccountId}`, () => tokenStateStatement(db).get({ id, serviceAccountId }) ?? null),
    updateExternalId: (teamId, id, externalId) =>
      db
        .update(players)
        .set({ externalId })
        .where(and(eq(players.id, id), eq(players.teamId, teamId)))
        .returning()
        .get() ?? null,
    replaceFederatedId: (teamId, id, federatedIdEnc, federatedIdHash) =>
      db
        .update(players)
        .set({ federatedIdEnc, federatedIdHash, version: sql`${players.version} + 1` })
        .where(and(eq(players.id, id), eq(players.teamId, teamId)))
        .returning()
        .get() ?? null,
    setConsent: (teamId, id, consent, at) =>
      db
        .update(players)
        .set({ consent, consentUpdatedAt: at })
        .where(and(eq(players.id, id), eq(players.teamId, teamId)))
        .returning()
        .get() ?? null,
    consentState: (id) => {
      const row = consentStatement(db).get({ id });
      return row ? { consent: row.consent, requireConsent: row.requireConsent === 1 } : null;
    },
    idsOfTeam: (teamId) =>
      db
        .select({ id: players.id })
        .from(players)
        .where(eq(players.teamId, teamId))
        .all()
        .map((row) => row.id),
    // bun:sqlite reports the count without a RETURNING round of row mapping.
    delete: (teamId, id) => deleteStatement(db).run({ id, teamId }).changes > 0,
  };
}

const listStatement = prepared((db) =>
  db
    .select()
    .from(players)
    .where(and(eq(players.teamId, sql.placeholder("teamId")), gt(players.id, sql.placeholder("after"))))
    .orderBy(asc(players.id))
    .limit(sql.placeholder("limit"))
    .prepare(),
);

const insertStatement = prepared((db) =>
  db
    .insert(players)
    .values({
      teamId: sql.placeholder("teamId"),
      externalId: sql.placeholder("externalId"),
      federatedIdEnc: sql.placeholder("federatedIdEnc"),
      federatedIdHash: sql.placeholder("federatedIdHash"),
    })
    .returning()
    .prepare(),
);

// Plain bun:sqlite on GET /api/players/{pk}: drizzle's row mapping costs as much again as the query.
const playerInTeam = prepared((db) =>
  db.$client.query<Omit<Player, "federatedIdEnc"> & { federatedIdEnc: Uint8Array }, { id: number; teamId: number }>(
    `SELECT id, team_id AS teamId, external_id AS externalId, federated_id_enc AS federatedIdEnc,
            federated_id_hash AS federatedIdHash, version, created_at AS createdAt,
            consent, consent_updated_at AS consentUpdatedAt
       FROM players WHERE id = $id AND team_id = $teamId`,
  ),
);

const playerByHash = prepared((db) =>
  db
    .select()
    .from(players)
    .where(eq(players.federatedIdHash, sql.placeholder("hash")))
    .prepare(),
);

// Plain bun:sqlite on the per-token checks: drizzle's row mapping costs as much again as the query.
const playerVersion = prepared((db) =>
  db.$client.query<{ version: number; teamId: number }, { id: number }>("SELECT version, team_id AS teamId FROM players WHERE id = $id"),
);

const tokenStateStatement = prepared((db) =>
  db.$client.query<{ version: number; teamId: number; serviceAccountTeamId: number | null }, { id: number; serviceAccountId: number }>(
    `SELECT p.version AS version, p.team_id AS teamId, (SELECT team_id FROM service_accounts WHERE id = $serviceAccountId) AS serviceAccountTeamId
       FROM players p WHERE p.id = $id`,
  ),
);

const consentStatement = prepared((db) =>
  db.$client.query<{ consent: Player["consent"]; requireConsent: number }, { id: number }>(
    "SELECT p.consent AS consent, t.require_consent AS requireConsent FROM players p JOIN teams t ON t.id = p.team_id WHERE p.id = $id",
  ),
);

const deleteStatement = prepared((db) => db.$client.query<never, { id: number; teamId: number }>("DELETE FROM players WHERE id = $id AND team_id = $teamId"));

/** Every query about players. */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { players, type Player } from "../db/schema.ts";
import type { PlayerLookup } from "../auth/index.ts";

/** What auth may ask about players (see auth/lookups.ts). */
export function playerLookup(db: Db): PlayerLookup {
  return {
    byFederatedHash(hash) {
      const player = findPlayerByFederatedHash(db, hash);
      return player ? { id: player.id, version: player.version, sealed: player.federatedIdEnc, teamId: player.teamId } : null;
    },
    state: (id) => playerState(db, id),
  };
}

/** Inserts a player; the unique (team, external_id) index reports duplicates. */
export function insertPlayer(
  db: Db,
  values: { teamId: number; externalId: string; federatedIdEnc: Buffer; federatedIdHash: string },
): Player {
  return insertStatement(db).get(values)!;
}

/** Up to `limit` players of a team with id above `after`, ordered by id. */
export function listPlayers(db: Db, teamId: number, after: number, limit: number): Player[] {
  return db
    .select()
    .from(players)
    .where(and(eq(players.teamId, teamId), gt(players.id, after)))
    .orderBy(asc(players.id))
    .limit(limit)
    .all();
}

/** A player of a team, or null (hot path: GET /api/players/{pk}). */
export function findPlayerInTeam(db: Db, teamId: number, id: number): Player | null {
  const row = playerInTeam(db).get({ id, teamId });
  return row ? { ...row, federatedIdEnc: Buffer.from(row.federatedIdEnc.buffer, row.federatedIdEnc.byteOffset, row.federatedIdEnc.byteLength) } : null;
}

/** The player whose federated id has this lookup hash, or null (player login hot path). */
export function findPlayerByFederatedHash(db: Db, hash: string): Player | null {
  return playerByHash(db).get({ hash }) ?? null;
}

/** Federated-id version and team of a player, or null (every player token check). */
export function playerState(db: Db, id: number): { version: number; teamId: number } | null {
  return playerVersion(db).get({ id }) ?? null;
}

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
            federated_id_hash AS federatedIdHash, version, created_at AS createdAt
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

// Plain bun:sqlite on the per-token check: drizzle's row mapping costs as much again as the query.
const playerVersion = prepared((db) => db.$client.query<{ version: number; teamId: number }, { id: number }>("SELECT version, team_id AS teamId FROM players WHERE id = $id"));

/** Changes a player's external id; null when the player is not in the team. */
export function updateExternalId(db: Db, teamId: number, id: number, externalId: string): Player | null {
  return (
    db
      .update(players)
      .set({ externalId })
      .where(and(eq(players.id, id), eq(players.teamId, teamId)))
      .returning()
      .get() ?? null
  );
}

/** Gives a player a new federated id and bumps the version, ending tokens made with the old one. */
export function replaceFederatedId(db: Db, teamId: number, id: number, federatedIdEnc: Buffer, federatedIdHash: string): Player | null {
  return (
    db
      .update(players)
      .set({ federatedIdEnc, federatedIdHash, version: sql`${players.version} + 1` })
      .where(and(eq(players.id, id), eq(players.teamId, teamId)))
      .returning()
      .get() ?? null
  );
}

/** The ids of every player of a team. */
export function playerIdsOfTeam(db: Db, teamId: number): number[] {
  return db.select({ id: players.id }).from(players).where(eq(players.teamId, teamId)).all().map((row) => row.id);
}

/** Deletes the team's player `id`; false when the player is not in the team. */
export function deletePlayer(db: Db, teamId: number, id: number): boolean {
  return deleteStatement(db).run({ id, teamId }).changes > 0;
}

// bun:sqlite reports the count without a RETURNING round of row mapping.
const deleteStatement = prepared((db) => db.$client.query<never, { id: number; teamId: number }>("DELETE FROM players WHERE id = $id AND team_id = $teamId"));

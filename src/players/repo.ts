/** Every query about players and their stored conversation. */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { conversationMessages, players, type Player } from "../db/schema.ts";

/** Inserts a player; the unique (team, external_id) index reports duplicates. */
export function insertPlayer(
  db: Db,
  values: { teamId: number; externalId: string; federatedIdEnc: Buffer; federatedIdHash: string },
): Player {
  return db.insert(players).values(values).returning().get();
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

/** Prepared: a player of a team (hot path: GET /api/players/{pk}). */
export function preparePlayerInTeam(db: Db) {
  return db
    .select()
    .from(players)
    .where(and(eq(players.id, sql.placeholder("id")), eq(players.teamId, sql.placeholder("teamId"))))
    .prepare();
}

/** Prepared: the player whose federated id has this lookup hash (player login hot path). */
export function preparePlayerByFederatedHash(db: Db) {
  return db
    .select()
    .from(players)
    .where(eq(players.federatedIdHash, sql.placeholder("hash")))
    .prepare();
}

/** Prepared: the federated-id version of a player (every player token check). */
export function preparePlayerVersion(db: Db) {
  return db
    .select({ version: players.version, teamId: players.teamId })
    .from(players)
    .where(eq(players.id, sql.placeholder("id")))
    .prepare();
}

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

/** Deletes a player and their conversation in one transaction; false when the player is not in the team. */
export function deletePlayer(db: Db, teamId: number, id: number): boolean {
  return db.transaction((tx) => {
    const player = tx
      .select({ id: players.id })
      .from(players)
      .where(and(eq(players.id, id), eq(players.teamId, teamId)))
      .get();
    if (!player) return false;
    // Explicit as well as ON DELETE CASCADE: the purge must not depend on the foreign_keys pragma.
    tx.delete(conversationMessages).where(eq(conversationMessages.playerId, id)).run();
    tx.delete(players).where(eq(players.id, id)).run();
    return true;
  });
}

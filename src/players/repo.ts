/**
 * Every query about players, as one async interface with a SQLite (repo-sqlite.ts) and a PostgreSQL
 * (repo-pg.ts) implementation; test/db/contract/players.test.ts holds both to it.
 */

import type { PlayerLookup } from "../auth/index.ts";
import type { Player } from "../db/schema.ts";

export type Consent = Player["consent"];

export type NewPlayer = { teamId: number; externalId: string; federatedIdEnc: Buffer; federatedIdHash: string };

export interface PlayerRepo {
  /** Inserts a player; the unique (team, external_id) index refuses a duplicate. */
  insert(values: NewPlayer): Promise<Player>;
  /** Up to `limit` players of a team with id above `after`, ordered by id. */
  list(teamId: number, after: number, limit: number): Promise<Player[]>;
  /** A player of a team, or null (hot path: GET /api/players/{pk}). */
  findInTeam(teamId: number, id: number): Promise<Player | null>;
  /** The player whose federated id has this lookup hash, or null (player login hot path). */
  findByFederatedHash(hash: string): Promise<Player | null>;
  /** Federated-id version and team of a player, or null. */
  state(id: number): Promise<{ version: number; teamId: number } | null>;
  /**
   * A player's version and team, and the team of the service account `serviceAccountId` (null when that account
   * is gone), in one query; null when the player is gone. Every player token check.
   */
  tokenState(id: number, serviceAccountId: number): Promise<{ version: number; teamId: number; serviceAccountTeamId: number | null } | null>;
  /** Changes a player's external id; null when the player is not in the team. */
  updateExternalId(teamId: number, id: number, externalId: string): Promise<Player | null>;
  /** Gives a player a new federated id and bumps the version, ending tokens made with the old one. */
  replaceFederatedId(teamId: number, id: number, federatedIdEnc: Buffer, federatedIdHash: string): Promise<Player | null>;
  /** Sets a player's consent and when it changed; null when the player is not in the team. */
  setConsent(teamId: number, id: number, consent: Consent, at: number): Promise<Player | null>;
  /** A player's consent and whether their team requires it, or null when the player is gone (every turn). */
  consentState(id: number): Promise<{ consent: Consent; requireConsent: boolean } | null>;
  /** The ids of every player of a team. */
  idsOfTeam(teamId: number): Promise<number[]>;
  /** Deletes the team's player `id`; false when the player is not in the team. */
  delete(teamId: number, id: number): Promise<boolean>;
}

/** What auth may ask about players (see auth/lookups.ts). */
export function playerLookup(players: PlayerRepo): PlayerLookup {
  return {
    async byFederatedHash(hash) {
      const player = await players.findByFederatedHash(hash);
      return player ? { id: player.id, version: player.version, sealed: player.federatedIdEnc, teamId: player.teamId } : null;
    },
    tokenState: (id, serviceAccountId) => players.tokenState(id, serviceAccountId),
  };
}

/**
 * Player rules: external ids are unique per team; federated ids are random secrets stored encrypted; every
 * read is scoped to the caller's team (another team's player is simply not found); deleting or resetting a
 * player ends their tokens and sockets at once.
 */
import type { Deps } from "../deps.ts";
import { Conflict, NotFound } from "../errors.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import { generateKey } from "../auth/index.ts";
import type { Player } from "../db/schema.ts";
import { deleteMessagesOfPlayer } from "../conversations/repo.ts";
import { forgetPlayerIncidents } from "../incidents/service.ts";
import { deletePlayer, findPlayerInTeam, insertPlayer, listPlayers, playerIdsOfTeam, replaceFederatedId, updateExternalId } from "./repo.ts";
import type { PlayerBody, PlayerList } from "./model.ts";
import { scrubDeletedData } from "../db/scrub.ts";

type PlayerDeps = Pick<Deps, "db" | "secrets" | "config" | "revocations">;

/** Creates a player with a fresh federated id; 409 `external_id_taken` when the team already has that external id. */
export function createPlayer(deps: PlayerDeps, teamId: number, externalId: string): PlayerBody {
  const fid = newFederatedId(deps);
  return uniqueExternalId(() => show(deps, insertPlayer(deps.db, { teamId, externalId, federatedIdEnc: fid.enc, federatedIdHash: fid.hash })));
}

/** One page of the team's players ordered by pk; `after` is the previous page's `next`. */
export function listTeamPlayers(deps: PlayerDeps, teamId: number, after: string | undefined, limit: number): PlayerList {
  const rows = listPlayers(deps.db, teamId, decodeCursor("p", after), limit + 1);
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor("p", page[page.length - 1]!.id) : null;
  return { players: page.map((p) => ({ pk: p.id, federated_id: federatedId(deps, p) })), next };
}

/** The team's player `id`, or 404. */
export function getPlayer(deps: PlayerDeps, teamId: number, id: number): PlayerBody {
  const player = findPlayerInTeam(deps.db, teamId, id);
  if (!player) throw new NotFound("player");
  return show(deps, player);
}

/** Changes the team's player's external id; 404 or 409 as for create. */
export function editPlayer(deps: PlayerDeps, teamId: number, id: number, externalId: string): PlayerBody {
  return uniqueExternalId(() => {
    const player = updateExternalId(deps.db, teamId, id, externalId);
    if (!player) throw new NotFound("player");
    return show(deps, player);
  });
}

/** Deletes the team's player and their conversation in one transaction, then ends their tokens and sockets. */
export function removePlayer(deps: PlayerDeps, teamId: number, id: number): void {
  if (purgePlayers(deps, teamId, [id]) === 0) throw new NotFound("player");
}

/** Deletes every player of a team and their conversations (team deletion); returns how many went. */
export function removeTeamPlayers(deps: PlayerDeps, teamId: number): number {
  return purgePlayers(deps, teamId, playerIdsOfTeam(deps.db, teamId));
}

// The one path by which players leave: rows and conversations in one transaction, then tokens and sockets end.
function purgePlayers(deps: PlayerDeps, teamId: number, ids: number[]): number {
  const gone = deps.db.transaction(() =>
    ids.filter((id) => {
      if (!deletePlayer(deps.db, teamId, id)) return false;
      // Explicit as well as ON DELETE CASCADE: the purge must not depend on the foreign_keys pragma.
      deleteMessagesOfPlayer(deps.db, id);
      forgetPlayerIncidents(deps.db, id);
      return true;
    }),
  );
  // The deleted words must leave the files too, not just the tables (secure_delete, then a WAL checkpoint).
  if (gone.length > 0) scrubDeletedData(deps.db);
  for (const id of gone) deps.revocations.publish({ kind: "player", playerId: id });
  return gone.length;
}

/** Gives the team's player a new federated id; the old one and its tokens stop working at once. */
export function resetFederatedId(deps: PlayerDeps, teamId: number, id: number): PlayerBody {
  const fid = newFederatedId(deps);
  const player = replaceFederatedId(deps.db, teamId, id, fid.enc, fid.hash);
  if (!player) throw new NotFound("player");
  deps.revocations.publish({ kind: "player", playerId: id });
  return show(deps, player);
}

function show(deps: PlayerDeps, p: Player): PlayerBody {
  return { pk: p.id, external_id: p.externalId, federated_id: federatedId(deps, p) };
}

function newFederatedId(deps: PlayerDeps) {
  const value = generateKey("fid", deps.config.env);
  return { value, enc: deps.secrets.encrypt(value), hash: deps.secrets.lookupHash(value) };
}

function uniqueExternalId<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict("A player with this external_id already exists in the team.", "external_id_taken");
    throw error;
  }
}

function federatedId(deps: PlayerDeps, player: Player): string {
  const value = deps.secrets.decrypt(player.federatedIdEnc);
  if (value === null) throw new Error("stored federated id cannot be decrypted (wrong HOOT_SECRET_KEY?)");
  return value;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/.test(error.message);
}

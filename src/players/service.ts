/**
 * Player rules: external ids are unique per team; federated ids are random secrets stored encrypted; every
 * read is scoped to the caller's team (another team's player is simply not found); deleting a player deletes
 * their conversation in the same transaction; deleting or resetting a player ends their tokens and sockets at
 * once (after the change has committed).
 */

import type { AuditRepo } from "../audit/repo.ts";
import { type AuditContext, audit, auditRead, SYSTEM } from "../audit/service.ts";
import { generateKey } from "../auth/index.ts";
import type { RevocationBus } from "../auth/revocations.ts";
import type { Secrets } from "../auth/secrets.ts";
import type { Config } from "../config.ts";
import type { ConversationRepo } from "../conversations/repo.ts";
import type { Database } from "../db/database.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { Player } from "../db/schema.ts";
import type { Store } from "../db/store.ts";
import { Conflict, NotFound } from "../errors.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import type { IncidentRepo } from "../incidents/repo.ts";
import type { Logger } from "../log.ts";
import type { PlayerBody, PlayerList } from "./model.ts";
import type { PlayerRepo } from "./repo.ts";

/** The repositories the players feature uses. */
export type PlayerRepositories = { players: PlayerRepo; conversations: ConversationRepo; incidents: IncidentRepo; audit: AuditRepo };

/** What the players feature needs (deleting a player deletes their conversation and incidents too). */
export interface PlayerNeeds {
  store: Store<PlayerRepositories>;
  database: Pick<Database, "scrubDeletedData">;
  secrets: Secrets;
  config: Pick<Config, "env" | "dbLockTimeoutMs">;
  revocations: Pick<RevocationBus, "publish">;
  logger: Pick<Logger, "error">;
}

/** Creates a player with a fresh federated id; 409 `external_id_taken` when the team already has that external id. */
export async function createPlayer(deps: PlayerNeeds, teamId: number, externalId: string): Promise<PlayerBody> {
  const fid = newFederatedId(deps);
  const player = await uniqueExternalId(deps.store.players.insert({ teamId, externalId, federatedIdEnc: fid.enc, federatedIdHash: fid.hash }));
  return show(deps, player);
}

/** One page of the team's players ordered by pk; `after` is the previous page's `next`. */
export async function listTeamPlayers(deps: PlayerNeeds, teamId: number, after: string | undefined, limit: number): Promise<PlayerList> {
  const rows = await deps.store.players.list(teamId, decodeCursor("p", after), limit + 1);
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor("p", page[page.length - 1]!.id) : null;
  return { players: page.map((p) => ({ pk: p.id, federated_id: federatedId(deps, p) })), next };
}

/**
 * The team's player `id`, or 404; audited as `player.read` when a context is given (GET /api/players/{pk}): the
 * row is group-committed with concurrent reads' rows, and this resolves once it has committed (src/audit/batch.ts).
 */
export async function getPlayer(deps: PlayerNeeds, teamId: number, id: number, context?: AuditContext): Promise<PlayerBody> {
  const player = await deps.store.players.findInTeam(teamId, id);
  if (!player) throw new NotFound("player");
  if (context) await auditRead(deps, teamId, context, "player.read", id);
  return show(deps, player);
}

/** Changes the team's player's external id; 404 or 409 as for create. */
export async function editPlayer(deps: PlayerNeeds, teamId: number, id: number, externalId: string): Promise<PlayerBody> {
  const player = await uniqueExternalId(deps.store.players.updateExternalId(teamId, id, externalId));
  if (!player) throw new NotFound("player");
  return show(deps, player);
}

/** Deletes the team's player with their conversation and incidents in one transaction, then ends their tokens and sockets. */
export async function removePlayer(deps: PlayerNeeds, teamId: number, id: number, context: AuditContext = SYSTEM): Promise<void> {
  if ((await purgePlayers(deps, teamId, [id], context)) === 0) throw new NotFound("player");
}

/** Deletes every player of a team and their conversations (team deletion, inside its transaction); returns how many went. */
export async function removeTeamPlayers(deps: PlayerNeeds, teamId: number, context: AuditContext = SYSTEM): Promise<number> {
  return purgePlayers(deps, teamId, await deps.store.players.idsOfTeam(teamId), context);
}

// The one path by which players leave: rows and conversations in one transaction; once it has committed, the
// deleted words are scrubbed from the files and the players' tokens and sockets end.
async function purgePlayers(deps: PlayerNeeds, teamId: number, ids: number[], context: AuditContext): Promise<number> {
  return deps.store.transaction(async (tx) => {
    const gone: number[] = [];
    for (const id of ids) {
      if (!(await tx.players.delete(teamId, id))) continue;
      // Explicit as well as ON DELETE CASCADE: the purge must not depend on the foreign_keys pragma.
      await tx.conversations.deleteOfPlayer(id);
      await tx.incidents.deleteOfPlayer(id);
      // The audit row stays: it names the player but holds nothing of them.
      await audit({ store: tx }, teamId, context, "player.delete", id);
      gone.push(id);
    }
    if (gone.length > 0) {
      tx.afterCommit(() => {
        // The deleted words must leave the files too, not just the tables (SQLite: secure_delete, then a WAL checkpoint).
        deps.database.scrubDeletedData();
        for (const id of gone) deps.revocations.publish({ kind: "player", playerId: id });
      });
    }
    return gone.length;
  });
}

/** Gives the team's player a new federated id; the old one and its tokens stop working at once. */
export async function resetFederatedId(deps: PlayerNeeds, teamId: number, id: number): Promise<PlayerBody> {
  const fid = newFederatedId(deps);
  const player = await deps.store.players.replaceFederatedId(teamId, id, fid.enc, fid.hash);
  if (!player) throw new NotFound("player");
  deps.store.afterCommit(() => deps.revocations.publish({ kind: "player", playerId: id }));
  return show(deps, player);
}

function show(deps: PlayerNeeds, p: Player): PlayerBody {
  return {
    pk: p.id,
    external_id: p.externalId,
    federated_id: federatedId(deps, p),
    consent: p.consent,
    consent_updated_at: p.consentUpdatedAt === null ? null : new Date(p.consentUpdatedAt).toISOString(),
  };
}

function newFederatedId(deps: PlayerNeeds) {
  const value = generateKey("fid", deps.config.env);
  return { value, enc: deps.secrets.encrypt(value), hash: deps.secrets.lookupHash(value) };
}

async function uniqueExternalId<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict("A player with this external_id already exists in the team.", "external_id_taken");
    throw error;
  }
}

function federatedId(deps: PlayerNeeds, player: Player): string {
  const value = deps.secrets.decrypt(player.federatedIdEnc);
  if (value === null) throw new Error("stored federated id cannot be decrypted (wrong HOOT_SECRET_KEY?)");
  return value;
}

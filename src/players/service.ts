/**
 * Player rules: external ids are unique per team; federated ids are random secrets stored encrypted; every
 * read is scoped to the caller's team (another team's player is simply not found); deleting or resetting a
 * player ends their tokens and sockets at once.
 */
import type { Deps } from "../deps.ts";
import { Conflict, InvalidRequest, NotFound } from "../errors.ts";
import { generateKey } from "../auth/keys.ts";
import type { Player } from "../db/schema.ts";
import { deletePlayer, findPlayerInTeam, insertPlayer, listPlayers, replaceFederatedId, updateExternalId } from "./repo.ts";
import type { PlayerBody, PlayerList } from "./model.ts";
import { scrubDeletedData } from "../db/scrub.ts";

type PlayerDeps = Pick<Deps, "db" | "secrets" | "config" | "revocations">;

export interface PlayerService {
  create(teamId: number, externalId: string): PlayerBody;
  list(teamId: number, after: string | undefined, limit: number): PlayerList;
  get(teamId: number, id: number): PlayerBody;
  edit(teamId: number, id: number, externalId: string): PlayerBody;
  remove(teamId: number, id: number): void;
  resetFederatedId(teamId: number, id: number): PlayerBody;
}

/** The player service over `deps`, with its hot-path statement prepared once. */
export function createPlayerService(deps: PlayerDeps): PlayerService {
  const show = (p: Player): PlayerBody => ({ pk: p.id, external_id: p.externalId, federated_id: federatedId(deps, p) });
  const newFederatedId = () => {
    const value = generateKey("fid", deps.config.env);
    return { value, enc: deps.secrets.encrypt(value), hash: deps.secrets.lookupHash(value) };
  };
  return {
    create(teamId, externalId) {
      const fid = newFederatedId();
      try {
        return show(insertPlayer(deps.db, { teamId, externalId, federatedIdEnc: fid.enc, federatedIdHash: fid.hash }));
      } catch (error) {
        if (isUniqueViolation(error)) throw new Conflict("A player with this external_id already exists in the team.", "external_id_taken");
        throw error;
      }
    },
    list(teamId, after, limit) {
      const rows = listPlayers(deps.db, teamId, decodeCursor(after), limit + 1);
      const page = rows.slice(0, limit);
      const next = rows.length > limit ? encodeCursor(page[page.length - 1]!.id) : null;
      return { players: page.map((p) => ({ pk: p.id, federated_id: federatedId(deps, p) })), next };
    },
    get(teamId, id) {
      const player = findPlayerInTeam(deps.db, teamId, id);
      if (!player) throw new NotFound("player");
      return show(player);
    },
    edit(teamId, id, externalId) {
      try {
        const player = updateExternalId(deps.db, teamId, id, externalId);
        if (!player) throw new NotFound("player");
        return show(player);
      } catch (error) {
        if (isUniqueViolation(error)) throw new Conflict("A player with this external_id already exists in the team.", "external_id_taken");
        throw error;
      }
    },
    remove(teamId, id) {
      if (!deletePlayer(deps.db, teamId, id)) throw new NotFound("player");
      scrubDeletedData(deps.db);
      deps.revocations.publish({ kind: "player", playerId: id });
    },
    resetFederatedId(teamId, id) {
      const fid = newFederatedId();
      const player = replaceFederatedId(deps.db, teamId, id, fid.enc, fid.hash);
      if (!player) throw new NotFound("player");
      deps.revocations.publish({ kind: "player", playerId: id });
      return show(player);
    },
  };
}

function federatedId(deps: PlayerDeps, player: Player): string {
  const value = deps.secrets.decrypt(player.federatedIdEnc);
  if (value === null) throw new Error("stored federated id cannot be decrypted (wrong HOOT_SECRET_KEY?)");
  return value;
}

// Cursors are opaque to clients; today they wrap the last pk so pages stay stable while players are added.
function encodeCursor(id: number): string {
  return Buffer.from(`p:${id}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === "") return 0;
  const match = /^p:(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw new InvalidRequest('The "after" cursor is not one this server gave out.', "invalid_cursor");
  return Number(match[1]);
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/.test(error.message);
}

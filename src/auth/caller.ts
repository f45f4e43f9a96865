/**
 * "Who is calling": resolves an Authorization bearer value (an access token, or a developer API key used
 * directly, which PROTOCOL.md allows for creating players) to a Caller. Every token use re-reads the version
 * of the credential that minted it (and a developer's membership of the token's team), which is what makes
 * rotation, deletion, reset and removal from a team take effect at once.
 */
import { InvalidRequest } from "../errors.ts";
import type { CredentialStore } from "./credentials.ts";
import type { AuthLookups } from "./lookups.ts";
import type { TokenClaims, TokenService } from "./tokens.ts";

/** A caller acting for one team. */
export type TeamCaller =
  | { kind: "developer"; userId: number; teamId: number }
  | { kind: "service"; serviceAccountId: number; teamId: number }
  | {
      kind: "player";
      playerId: number;
      teamId: number;
      serviceAccountId: number;
      expiresAt: number /** The player's credential version the token carries (a node re-checks open sockets against it). */;
      version: number;
    };

/** The deployment's operator (admin routes only). */
export type OperatorCaller = { kind: "operator"; operatorKeyId: number };

export type Caller = TeamCaller | OperatorCaller;

export interface CallerResolver {
  /** The caller behind a bearer value, or null (401). */
  fromBearer(value: string): Promise<Caller | null>;
  /** The caller behind an access token whose credential is still current, or null. */
  fromToken(token: string): Promise<Caller | null>;
}

/** A resolver checking every token against the features' current credential state. */
export function createCallerResolver(lookups: AuthLookups, tokens: TokenService, credentials: CredentialStore): CallerResolver {
  const current = async (claims: TokenClaims): Promise<Caller | null> => {
    const id = Number(claims.sub);
    switch (claims.typ) {
      case "developer": {
        // One query: the key version and the membership of the token's team.
        const state = await lookups.developers.tokenState(id, claims.tid);
        return state?.keyVersion === claims.ver && state.member ? { kind: "developer", userId: id, teamId: claims.tid } : null;
      }
      case "service": {
        const state = await lookups.serviceAccounts.state(id);
        const ok = state?.version === claims.ver && state.playerCreate && state.teamId === claims.tid;
        return ok ? { kind: "service", serviceAccountId: id, teamId: claims.tid } : null;
      }
      case "player": {
        if (claims.sa === undefined) return null;
        // The player, and the service account that logged the player in, must both still be there.
        const state = await lookups.players.tokenState(id, claims.sa);
        if (state?.version !== claims.ver || state.teamId !== claims.tid || state.serviceAccountTeamId !== claims.tid) return null;
        return { kind: "player", playerId: id, teamId: claims.tid, serviceAccountId: claims.sa, expiresAt: claims.exp, version: claims.ver };
      }
      case "operator": {
        // Rotating or deleting the operator key changes or removes its version: its tokens end at once.
        return claims.tid === 0 && (await lookups.operators.version(id)) === claims.ver ? { kind: "operator", operatorKeyId: id } : null;
      }
    }
  };

  const fromToken = async (token: string) => {
    const claims = await tokens.verify(token);
    return claims ? current(claims) : null;
  };

  return {
    fromToken,
    async fromBearer(value) {
      if (!value.startsWith("hoot_")) return fromToken(value);
      const user = await credentials.developer(value);
      if (!user) return null;
      const teams = await lookups.teams.teamsOf(user.id);
      if (teams.length === 0) return null;
      if (teams.length > 1) {
        throw new InvalidRequest("This developer key belongs to several teams; log in with team_name and use the access token instead.", "team_name_required");
      }
      return { kind: "developer", userId: user.id, teamId: teams[0]!.id };
    },
  };
}

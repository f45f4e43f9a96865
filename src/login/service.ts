/**
 * Login: exchanges a developer key, a playerCreate service key, a service key plus federated id, or an
 * operator key for an access token. Rules: null and "" mean absent for every field (the SDKs send both);
 * refuse early when the key (or federated id) is over its failure limit; never refuse a credential that checks
 * out because of its client address: behind a proxy every client may share one address, so the address's limit
 * only turns a failing credential's 401 into 429; every credential that does not authenticate answers the same
 * 401 whatever the body's shape, is counted, and is logged by reason without the secret; a developer in several
 * teams must name one.
 */

import type { CredentialStore } from "../auth/credentials.ts";
import type { AuthLookups } from "../auth/lookups.ts";
import type { LoginLimiter } from "../auth/rate-limit.ts";
import type { Secrets } from "../auth/secrets.ts";
import type { TokenService } from "../auth/tokens.ts";
import { AppError, Forbidden, InvalidRequest, TooManyRequests, Unauthorized } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { LoginBody, LoginResponse } from "./model.ts";

/** What login needs. */
export interface LoginNeeds {
  lookups: AuthLookups;
  credentials: CredentialStore;
  tokens: TokenService;
  secrets: Secrets;
  loginLimiter: LoginLimiter;
  logger: Logger;
  metrics: Pick<Metrics, "authFailures">;
}

interface LoginForm {
  apiKey: string | undefined;
  federatedId: string | undefined;
  teamName: string | undefined;
}

const given = (value: string | null | undefined) => (value === null || value === "" ? undefined : value);

/** Issues the token for `body`; `client` is the caller's address (for limiting). */
export async function login(deps: LoginNeeds, body: LoginBody, client: string): Promise<LoginResponse> {
  const form: LoginForm = { apiKey: given(body.api_key), federatedId: given(body.federated_id), teamName: given(body.team_name) };
  // Player logins are limited per federated id, never per service key: that key is public (it ships in the
  // app), so counting failures against it would let anyone lock every player of the app out.
  const keyBucket = form.federatedId !== undefined ? `fid:${deps.secrets.lookupHash(form.federatedId)}` : `key:${deps.secrets.lookupHash(form.apiKey ?? "")}`;
  const addressBucket = `ip:${client}`;
  const keyWait = await deps.loginLimiter.retryAfter(keyBucket);
  if (keyWait > 0) throw rateLimited(deps, client, keyWait);
  try {
    const issued = await issue(deps, form);
    return { access_token: issued.token, expires_in: issued.expiresIn, token_type: "Bearer" };
  } catch (error) {
    if (error instanceof AppError && (error.status === 401 || error.status === 403)) {
      const addressWait = await deps.loginLimiter.retryAfter(addressBucket);
      await Promise.all([deps.loginLimiter.recordFailure(addressBucket), deps.loginLimiter.recordFailure(keyBucket)]);
      if (addressWait > 0) throw rateLimited(deps, client, addressWait);
      deps.metrics.authFailures.inc({ reason: error.code });
      deps.logger.warn({ event: "login_failed", code: error.code, client, form: form.federatedId ? "player" : "key" }, "login failed");
    }
    throw error;
  }
}

function rateLimited(deps: LoginNeeds, client: string, wait: number): TooManyRequests {
  deps.metrics.authFailures.inc({ reason: "rate_limited" });
  deps.logger.warn({ event: "login_rate_limited", client }, "login refused: too many failures");
  return new TooManyRequests(wait);
}

async function issue(deps: LoginNeeds, form: LoginForm) {
  if (form.apiKey === undefined) throw new Unauthorized();
  const kind = deps.credentials.kindOf(form.apiKey);
  if (kind === "dk") {
    if (form.federatedId !== undefined) throw new Unauthorized();
    const user = await deps.credentials.developer(form.apiKey);
    if (!user) throw new Unauthorized();
    const teamId = await developerTeam(deps, user.id, form.teamName);
    return deps.tokens.issue({ typ: "developer", sub: String(user.id), tid: teamId, ver: user.version });
  }
  if (kind === "sk") {
    const sa = await deps.credentials.serviceAccount(form.apiKey);
    if (!sa) throw new Unauthorized();
    if (form.teamName !== undefined && (await deps.lookups.teams.byName(form.teamName))?.id !== sa.teamId) throw new Unauthorized();
    if (form.federatedId === undefined) {
      if (!sa.playerCreate) {
        throw new Forbidden("This service account key may only log players in; give it the playerCreate permission to get a service token.");
      }
      return deps.tokens.issue({ typ: "service", sub: String(sa.id), tid: sa.teamId, ver: sa.version });
    }
    const player = await deps.credentials.player(form.federatedId);
    if (!player || player.teamId !== sa.teamId) throw new Unauthorized();
    return deps.tokens.issue({ typ: "player", sub: String(player.id), tid: player.teamId, ver: player.version, sa: sa.id });
  }
  if (kind === "op") {
    // An operator key acts for the whole deployment: a team or a player named with it is a wrong credential.
    if (form.federatedId !== undefined || form.teamName !== undefined) throw new Unauthorized();
    const operator = await deps.credentials.operator(form.apiKey);
    if (!operator) throw new Unauthorized();
    return deps.tokens.issue({ typ: "operator", sub: String(operator.id), tid: 0, ver: operator.version });
  }
  throw new Unauthorized();
}

async function developerTeam(deps: LoginNeeds, userId: number, teamName: string | undefined): Promise<number> {
  if (teamName !== undefined) {
    const team = await deps.lookups.teams.byName(teamName);
    if (!team || !(await deps.lookups.teams.isMember(userId, team.id))) throw new Unauthorized();
    return team.id;
  }
  const teams = await deps.lookups.teams.teamsOf(userId);
  if (teams.length === 1) return teams[0]!.id;
  if (teams.length === 0) throw new Forbidden("This developer belongs to no team yet.", "no_team");
  throw new InvalidRequest("This developer belongs to several teams; say which with team_name.", "team_name_required");
}

/**
 * The console's ONE door to the rest of hoot. Everything the console does to developers, teams, invitations,
 * service accounts, players, safety policies and incidents goes through the same services (and so the same
 * team rules) as the HTTP API, called from here and nowhere else in src/console, so a rename in those services
 * is fixed in this file alone.
 */

import type { AuditList } from "../audit/model.ts";
import type { AuditRepo } from "../audit/repo.ts";
import { type AuditContext, listTeamAudit } from "../audit/service.ts";
import type { CallerResolver } from "../auth/caller.ts";
import type { CredentialStore } from "../auth/credentials.ts";
import type { AuthLookups } from "../auth/lookups.ts";
import type { LoginLimiter } from "../auth/rate-limit.ts";
import type { RevocationBus } from "../auth/revocations.ts";
import type { Secrets } from "../auth/secrets.ts";
import type { TokenService } from "../auth/tokens.ts";
import type { Config } from "../config.ts";
import type { TextCipher } from "../conversations/cipher.ts";
import type { ConversationRepo } from "../conversations/repo.ts";
import type { Database } from "../db/database.ts";
import type { Store } from "../db/store.ts";
import { FLITE_VOICES, OPENAI_VOICES } from "../engine/index.ts";
import { AppError, Unauthorized } from "../errors.ts";
import type { IncidentBody } from "../incidents/model.ts";
import type { IncidentRepo } from "../incidents/repo.ts";
import { listTeamIncidents } from "../incidents/service.ts";
import type { InvitationRepo } from "../invitations/repo.ts";
import type { Logger } from "../log.ts";
import { login } from "../login/service.ts";
import type { Metrics } from "../metrics.ts";
import type { PlayerBody, PlayerList } from "../players/model.ts";
import { eraseHistory, exportPlayer } from "../players/privacy.ts";
import type { PlayerRepo } from "../players/repo.ts";
import { createPlayer, getPlayer, listTeamPlayers, removePlayer, resetFederatedId } from "../players/service.ts";
import { listPolicies, type PolicyInfo } from "../policies/catalog.ts";
import type { TeamPolicyView } from "../safety-policies/model.ts";
import type { SafetyPolicyRepo } from "../safety-policies/repo.ts";
import { listTeamPolicies } from "../safety-policies/service.ts";
import type { ServiceAccountBody } from "../service-accounts/model.ts";
import type { ServiceAccountRepo } from "../service-accounts/repo.ts";
import { createServiceAccount as createSa, listTeamServiceAccounts, removeServiceAccount } from "../service-accounts/service.ts";
import type { TeamBody } from "../teams/model.ts";
import type { TeamRepo } from "../teams/repo.ts";
import { getTeam, setRequireConsent, teamsOf as teamsOfUser } from "../teams/service.ts";
import type { UserRepo } from "../users/repo.ts";
import { describeMe, registerDeveloper, rotateDeveloperKey as rotateKey } from "../users/service.ts";
import type { ConsoleRepo } from "./repo.ts";

/** The repositories the console reaches, its own and those of the features it fronts. */
export type ConsoleRepositories = {
  console: ConsoleRepo;
  users: UserRepo;
  teams: TeamRepo;
  serviceAccounts: ServiceAccountRepo;
  invitations: InvitationRepo;
  players: PlayerRepo;
  conversations: ConversationRepo;
  incidents: IncidentRepo;
  safetyPolicies: SafetyPolicyRepo;
  audit: AuditRepo;
};

/**
 * What the console needs: it fronts most features (through this file) and signs developers in, so it needs most
 * of what they need, but never the cluster. The conversation cipher is for one thing only: a parent's export
 * of a player's data (players/privacy.ts), which the console downloads as the API does.
 */
export interface ConsoleNeeds {
  config: Config;
  store: Store<ConsoleRepositories>;
  database: Pick<Database, "scrubDeletedData">;
  logger: Logger;
  metrics: Pick<Metrics, "authFailures">;
  secrets: Secrets;
  lookups: AuthLookups;
  tokens: TokenService;
  credentials: CredentialStore;
  callers: CallerResolver;
  loginLimiter: LoginLimiter;
  revocations: RevocationBus;
  textCipher: TextCipher;
}
export type { PlayerBody, PlayerList, ServiceAccountBody };

export interface TeamRef {
  pk: number;
  name: string;
}

export interface DeveloperProfile {
  pk: number;
  name: string;
  email: string;
  teams: TeamRef[];
}

/** Who a valid developer API key signs in as. */
export interface KeySignIn {
  userId: number;
  teamId: number;
  keyVersion: number;
}

// --- developers and teams ---

/** The developer with this (lower-cased) e-mail, or null. */
export async function findDeveloperByEmail(deps: ConsoleNeeds, email: string): Promise<{ id: number; keyVersion: number } | null> {
  const user = await deps.store.users.findByEmail(email);
  return user ? { id: user.id, keyVersion: user.keyVersion } : null;
}

/** Name, e-mail and teams of a developer (without the key). */
export async function developerProfile(deps: ConsoleNeeds, userId: number): Promise<DeveloperProfile> {
  const me = await describeMe(deps, userId);
  return { pk: me.pk, name: me.name, email: me.email, teams: me.teams };
}

/** The developer's API key, in full. */
export async function developerKey(deps: ConsoleNeeds, userId: number): Promise<string> {
  return (await describeMe(deps, userId)).api_key;
}

/** Rotates the developer's key (ending every token it minted); the new key and version. */
export async function rotateDeveloperKey(deps: ConsoleNeeds, userId: number): Promise<{ apiKey: string; keyVersion: number }> {
  const { user, apiKey } = await rotateKey(deps, userId);
  return { apiKey, keyVersion: user.keyVersion };
}

/** The developer's current key version, or null when the developer is gone. */
export function developerKeyVersion(deps: ConsoleNeeds, userId: number): Promise<number | null> {
  return deps.store.users.keyVersion(userId);
}

/** The developer's teams, oldest first. */
export function teamsOf(deps: ConsoleNeeds, userId: number): Promise<TeamRef[]> {
  return teamsOfUser(deps, userId);
}

/** Whether the developer belongs to the team. */
export function isMember(deps: ConsoleNeeds, userId: number, teamId: number): Promise<boolean> {
  return deps.store.teams.isMember(userId, teamId);
}

/** Creates the developer account of an invited e-mail at its first single sign-on (in no team yet); their user id. */
export async function registerInvitedDeveloper(deps: ConsoleNeeds, input: { email: string; name: string }): Promise<number> {
  return (await registerDeveloper(deps, input)).pk;
}

// --- invitations: the team's (invite, list, withdraw) and the developer's own (accept, decline, leave a team) ---

export {
  acceptInvitation,
  declineInvitation,
  invitationsOf,
  inviteFromConsole,
  isInvited,
  joinFirstInvitingTeam,
  leaveOwnTeam,
  teamInvitations,
  withdrawInvitation,
} from "../invitations/service.ts";

// --- logging in through the login service ---

/**
 * Checks a developer API key exactly as `POST /api/auth/login` does (same limits, same errors); a developer in
 * several teams who names none is signed in to their first team (they can switch in the console).
 */
export async function signInWithKey(deps: ConsoleNeeds, apiKey: string, teamName: string | undefined, client: string): Promise<KeySignIn> {
  // Only developer keys open the console; a service key would get a service token from the login service.
  if (deps.credentials.kindOf(apiKey) !== "dk") throw new Unauthorized();
  let issued;
  try {
    issued = await login(deps, { api_key: apiKey, ...(teamName ? { team_name: teamName } : {}) }, client);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "team_name_required")) throw error;
    // The login service only says this after the key checked out, so looking the key up again reveals nothing.
    const user = await deps.credentials.developer(apiKey);
    const first = user ? (await teamsOf(deps, user.id))[0] : undefined;
    if (!first) throw error;
    issued = await login(deps, { api_key: apiKey, team_name: first.name }, client);
  }
  const claims = await deps.tokens.verify(issued.access_token);
  if (!claims || claims.typ !== "developer") throw new Error("the login service issued an unusable developer token");
  return { userId: Number(claims.sub), teamId: claims.tid, keyVersion: claims.ver };
}

/** A developer access token for the developer in `teamId`, through the login service. */
export async function developerToken(
  deps: ConsoleNeeds,
  userId: number,
  teamId: number,
  client: string,
): Promise<{ access_token: string; expires_in: number; token_type: "Bearer" }> {
  const team = (await teamsOf(deps, userId)).find((t) => t.pk === teamId);
  if (!team) throw new Unauthorized();
  return login(deps, { api_key: await developerKey(deps, userId), team_name: team.name }, client);
}

// --- service accounts ---

/** The team's service-account keys (playerCreate keys masked). */
export function listServiceAccounts(deps: ConsoleNeeds, teamId: number): Promise<ServiceAccountBody[]> {
  return listTeamServiceAccounts(deps, teamId);
}

/** Creates a service-account key; the answer holds the key in full. */
export function createServiceAccount(deps: ConsoleNeeds, teamId: number, name: string, playerCreate: boolean): Promise<ServiceAccountBody> {
  return createSa(deps, teamId, name, playerCreate);
}

/** Deletes the team's service account (404 for another team's). */
export function deleteServiceAccount(deps: ConsoleNeeds, teamId: number, id: number): Promise<void> {
  return removeServiceAccount(deps, teamId, id);
}

// --- players ---

export interface ConsolePlayers {
  create(teamId: number, externalId: string): Promise<PlayerBody>;
  list(teamId: number, after: string | undefined, limit: number): Promise<PlayerList>;
  /** A player; audited as `player.read` when `audit` is given (the player's own page, not the listing). */
  get(teamId: number, id: number, audit?: AuditContext): Promise<PlayerBody>;
  remove(teamId: number, id: number, audit: AuditContext): Promise<void>;
  resetFederatedId(teamId: number, id: number): Promise<PlayerBody>;
  /** Everything held about the player (a parent's request) as one JSON document streamed as it is read, audited as `player.export`. */
  exportData(teamId: number, id: number, audit: AuditContext): Promise<ReadableStream<Uint8Array>>;
  /** Erases the player's history and memory, audited as `player.history_erase`. */
  eraseHistory(teamId: number, id: number, audit: AuditContext): Promise<void>;
  /** The player's audit rows, newest first. */
  audit(teamId: number, id: number, after: string | undefined): Promise<AuditList>;
}

/** The players service (create, list, get, reset, delete, a parent's requests), team-scoped like the API. */
export function players(deps: ConsoleNeeds): ConsolePlayers {
  return {
    create: (teamId, externalId) => createPlayer(deps, teamId, externalId),
    list: (teamId, after, limit) => listTeamPlayers(deps, teamId, after, limit),
    get: (teamId, id, audit) => getPlayer(deps, teamId, id, audit),
    remove: (teamId, id, audit) => removePlayer(deps, teamId, id, audit),
    resetFederatedId: (teamId, id) => resetFederatedId(deps, teamId, id),
    exportData: (teamId, id, audit) => exportPlayer(deps, teamId, id, audit),
    eraseHistory: (teamId, id, audit) => eraseHistory(deps, teamId, id, audit),
    audit: (teamId, id, after) => listTeamAudit(deps, teamId, { player_pk: String(id), limit: 50, ...(after ? { after } : {}) }),
  };
}

/** The team's settings as the console shows them. */
export function teamSettings(deps: ConsoleNeeds, teamId: number): Promise<TeamBody> {
  return getTeam(deps, teamId);
}

/** Turns the team's require_consent on or off (the team's own developer, like PATCH /api/teams/{pk}). */
export function setTeamRequireConsent(deps: ConsoleNeeds, teamId: number, value: boolean): Promise<TeamBody> {
  return setRequireConsent(deps, teamId, value);
}

/** The name of the login-only key the console makes when a team has none, so the playground can log players in. */
export const PLAYGROUND_KEY_NAME = "console playground";

/**
 * A player token for the playground, made as an app makes one: the team's login-only service key plus the
 * player's federated id, through the login service. A team without a login-only key gets one named
 * "console playground" (listed under Authentication like any other).
 */
export async function playerToken(
  deps: ConsoleNeeds,
  teamId: number,
  playerPk: number,
  client: string,
): Promise<{ access_token: string; expires_in: number; created_key: boolean }> {
  const player = await players(deps).get(teamId, playerPk);
  let key = (await listServiceAccounts(deps, teamId)).find((sa) => !sa.permissions.includes("playerCreate"));
  let createdKey = false;
  if (!key) {
    try {
      key = await createServiceAccount(deps, teamId, PLAYGROUND_KEY_NAME, false);
      createdKey = true;
    } catch (error) {
      // Another request (another node) made it a moment ago: use that one.
      if (!(error instanceof AppError && error.code === "name_taken")) throw error;
      key = (await listServiceAccounts(deps, teamId)).find((sa) => sa.name === PLAYGROUND_KEY_NAME && !sa.permissions.includes("playerCreate"));
      if (!key) throw error;
    }
  }
  const issued = await login(deps, { api_key: key.api_key, federated_id: player.federated_id }, client);
  return { access_token: issued.access_token, expires_in: issued.expires_in, created_key: createdKey };
}

// --- what the engine offers ---

/** Voice ids the configured speech provider knows. */
export function voices(deps: ConsoleNeeds): string[] {
  return deps.config.ttsProvider === "openai" ? [...OPENAI_VOICES] : FLITE_VOICES.map((v) => v.id);
}

// --- safety: the same services as GET /api/policies, /api/safety-policies and /api/safety/incidents ---

/** The policies a configuration may name: the built-in ones, then the team's own. */
export function policies(deps: ConsoleNeeds, teamId: number): Promise<PolicyInfo[]> {
  return listPolicies(deps, teamId);
}

/** The team's own safety policies. */
export function teamPolicies(deps: ConsoleNeeds, teamId: number): Promise<TeamPolicyView[]> {
  return listTeamPolicies(deps, teamId);
}

/** The team's latest incidents, newest first. */
export async function recentIncidents(deps: ConsoleNeeds, teamId: number): Promise<IncidentBody[]> {
  return (await listTeamIncidents(deps, teamId, { limit: 50 })).incidents;
}

export { createTeamPolicy, putTeamPolicy } from "../safety-policies/service.ts";

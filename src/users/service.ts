/**
 * Developer rules: e-mail addresses identify developers (stored lower-cased, unique); each developer has one
 * key (shown in /api/users/me), rotated on demand; rotating the key, deleting the developer or removing them
 * from a team ends the tokens concerned at once (tokens are checked against the key version and the team's
 * membership on every use). A developer's key is shown only to that developer, and once to the operator (or
 * admin command) that created them; a developer of a team can only invite an e-mail (invitations/), never
 * create an account or attach an existing one to a team.
 */

import { type Caller, generateKey } from "../auth/index.ts";
import type { RevocationBus } from "../auth/revocations.ts";
import type { Secrets } from "../auth/secrets.ts";
import type { Config } from "../config.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { User } from "../db/schema.ts";
import type { Store } from "../db/store.ts";
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../errors.ts";
import type { InvitationRepo } from "../invitations/repo.ts";
import { inviteToTeam } from "../invitations/service.ts";
import type { CreatedSdkServiceAccount } from "../service-accounts/model.ts";
import type { ServiceAccountRepo } from "../service-accounts/repo.ts";
import { asCreatedSdkServiceAccount, createServiceAccount } from "../service-accounts/service.ts";
import type { TeamRepo } from "../teams/repo.ts";
import { joinTeam, leaveTeam, requireTeam, requireTeamById, teamsByUser, teamsOf } from "../teams/service.ts";
import { normalizeEmail } from "./email.ts";
import type { CreatedDeveloper, CreateUserBody, InvitedDeveloper, Me, UserBody } from "./model.ts";
import type { UserRepo } from "./repo.ts";

/** What the users feature needs (creating a developer may create their team's first service account, or invite them). */
export interface UserNeeds {
  store: Store<{ users: UserRepo; teams: TeamRepo; serviceAccounts: ServiceAccountRepo; invitations: InvitationRepo }>;
  secrets: Secrets;
  config: Pick<Config, "env" | "allowSelfDelete" | "maxServiceAccountsPerTeam" | "maxPendingInvitationsPerTeam">;
  revocations: Pick<RevocationBus, "publish">;
}

/**
 * Creates the developer if new (with a fresh key) and adds them to the team; `apiKey` is set only when created.
 * For the operator's tools only (admin command, start-up): it attaches an existing developer without asking them.
 */
export async function createDeveloper(
  deps: UserNeeds,
  input: { teamName: string; email: string; name: string },
): Promise<{ user: User; apiKey: string | null; teamId: number }> {
  const person = checked(input);
  return onceMore(() =>
    deps.store.transaction(async (tx) => {
      const inTx = { ...deps, store: tx };
      const team = await requireTeam(inTx, input.teamName);
      const { user, apiKey } = await findOrCreate(inTx, person);
      await joinTeam(inTx, team.id, user.id);
      return { user, apiKey, teamId: team.id };
    }),
  );
}

/** Creates a developer in no team yet (operator); 409 `email_taken` when the e-mail is known. */
export async function registerDeveloper(deps: UserNeeds, input: { email: string; name: string }): Promise<CreatedDeveloper> {
  const person = checked(input);
  const taken = () => new Conflict(`A developer with e-mail "${person.email}" already exists.`, "email_taken");
  try {
    return await deps.store.transaction(async (tx) => {
      if (await tx.users.findByEmail(person.email)) throw taken();
      const { user, apiKey } = await insertDeveloper({ ...deps, store: tx }, person);
      return { pk: user.id, name: user.name, email: user.email, user_type: "user", api_key: apiKey };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** Every developer with their teams (operator). */
export async function listDevelopers(deps: UserNeeds): Promise<UserBody[]> {
  const teams = await teamsByUser(deps);
  return (await deps.store.users.list()).map((user) => show(user, teams.get(user.id) ?? []));
}

/** The developer `id` with their teams, or 404. */
export async function getDeveloper(deps: UserNeeds, id: number): Promise<UserBody> {
  const user = await deps.store.users.get(id);
  if (!user) throw new NotFound("user");
  return show(user, await teamsOf(deps, id));
}

/** Renames the developer `id` (an absent name changes nothing), or 404. */
export async function renameDeveloper(deps: UserNeeds, id: number, name: string | undefined): Promise<UserBody> {
  const trimmed = name?.trim();
  if (trimmed) {
    if (!(await deps.store.users.rename(id, trimmed))) throw new NotFound("user");
  }
  return getDeveloper(deps, id);
}

/** Deletes the developer `id` and their memberships; their key and tokens stop working at once. */
export async function removeDeveloper(deps: UserNeeds, id: number): Promise<void> {
  if (!(await deps.store.users.delete(id))) throw new NotFound("user");
  deps.store.afterCommit(() => deps.revocations.publish({ kind: "user", userId: id }));
}

/** Deletes the calling developer, only where the operator allows it (HOOT_ALLOW_SELF_DELETE). */
export async function removeSelf(deps: UserNeeds, id: number): Promise<void> {
  if (!deps.config.allowSelfDelete) {
    throw new Forbidden("Deleting your own account is switched off on this server; ask its operator (HOOT_ALLOW_SELF_DELETE).");
  }
  await removeDeveloper(deps, id);
}

/** Adds the developer `userId` to the team `teamId` (operator); 404 when either is absent. */
export async function addDeveloperToTeam(deps: UserNeeds, userId: number, teamId: number): Promise<UserBody> {
  return deps.store.transaction(async (tx) => {
    const inTx = { ...deps, store: tx };
    const developer = await getDeveloper(inTx, userId);
    await requireTeamById(inTx, teamId);
    await joinTeam(inTx, teamId, userId);
    return { ...developer, teams: await teamsOf(inTx, userId) };
  });
}

/** Removes the developer `userId` from the team `teamId` (operator); 404 when they were not a member. */
export async function removeDeveloperFromTeam(deps: UserNeeds, userId: number, teamId: number): Promise<void> {
  if (!(await leaveTeam(deps, teamId, userId))) throw new NotFound("membership");
}

/**
 * POST /api/users as the hosted engine's SDKs use it: a service account of the caller's team (user_type
 * playerLogin / playerCreate, 201); with a developer token and user_type user, an invitation of that e-mail
 * to the caller's team (202, the same answer whether the e-mail has an account or not, and never a key);
 * for the operator, a new developer in no team (201, the key shown this once).
 */
export async function createUser(
  deps: UserNeeds,
  caller: Caller,
  body: CreateUserBody,
): Promise<{ status: 201; body: CreatedDeveloper | CreatedSdkServiceAccount } | { status: 202; body: InvitedDeveloper }> {
  const type = body.user_type ?? "user";
  const email = body.email?.trim() || undefined;
  if (type !== "user") {
    if (caller.kind !== "developer") {
      throw new InvalidRequest("A service account belongs to a team: create it with a developer token of that team (or hoot admin create-service-account).");
    }
    const account = await createServiceAccount(deps, caller.teamId, body.name.trim(), type === "playerCreate");
    return { status: 201, body: asCreatedSdkServiceAccount(account) };
  }
  if (email === undefined) throw new InvalidRequest('Field "email" is required for user_type "user".');
  if (caller.kind === "developer") {
    // Already a member or already invited answers the same: the caller learns nothing about other accounts.
    const outcome = await inviteToTeam(deps, { teamId: caller.teamId, email, invitedBy: caller.userId });
    return { status: 202, body: { email: outcome.email, invited: true } };
  }
  if (caller.kind !== "operator") throw new Forbidden();
  return { status: 201, body: await registerDeveloper(deps, { email, name: body.name }) };
}

function checked(input: { email: string; name: string }): { email: string; name: string } {
  const email = normalizeEmail(input.email);
  const name = input.name.trim();
  if (!name) throw new InvalidRequest("The developer's name must not be empty.");
  return { email, name };
}

// Call inside a transaction: the e-mail check and the insert belong together. Two transactions creating the
// same e-mail at once (PostgreSQL) meet at the unique index; `onceMore` then runs the loser again, which finds
// the winner's row.
async function findOrCreate(deps: UserNeeds, person: { email: string; name: string }): Promise<{ user: User; apiKey: string | null }> {
  const known = await deps.store.users.findByEmail(person.email);
  if (known) return { user: known, apiKey: null };
  return insertDeveloper(deps, person);
}

async function insertDeveloper(deps: UserNeeds, person: { email: string; name: string }): Promise<{ user: User; apiKey: string }> {
  const apiKey = generateKey("dk", deps.config.env);
  const user = await deps.store.users.insert({
    name: person.name,
    email: person.email,
    apiKeyEnc: deps.secrets.encrypt(apiKey),
    apiKeyHash: deps.secrets.lookupHash(apiKey),
  });
  return { user, apiKey };
}

async function onceMore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return work();
  }
}

function show(user: User, teams: UserBody["teams"]): UserBody {
  return { pk: user.id, name: user.name, email: user.email, user_type: "user", teams, created_at: new Date(user.createdAt).toISOString() };
}

/** Gives the developer a new key; the old key and every token it minted stop working at once. */
export async function rotateDeveloperKey(deps: UserNeeds, userId: number): Promise<{ user: User; apiKey: string }> {
  const apiKey = generateKey("dk", deps.config.env);
  const user = await deps.store.users.replaceKey(userId, deps.secrets.encrypt(apiKey), deps.secrets.lookupHash(apiKey));
  if (!user) throw new NotFound("developer");
  deps.store.afterCommit(() => deps.revocations.publish({ kind: "user", userId }));
  return { user, apiKey };
}

/** Rotates the key of the developer with `email` (admin command). */
export async function rotateDeveloperKeyByEmail(deps: UserNeeds, email: string): Promise<{ user: User; apiKey: string }> {
  const user = await deps.store.users.findByEmail(email.trim().toLowerCase());
  if (!user) throw new NotFound(`developer with e-mail "${email}"`);
  return rotateDeveloperKey(deps, user.id);
}

/** The /api/users/me body for `userId`. */
export async function describeMe(deps: UserNeeds, userId: number): Promise<Me> {
  const user = await deps.store.users.get(userId);
  if (!user) throw new NotFound("developer");
  const apiKey = deps.secrets.decrypt(user.apiKeyEnc);
  if (apiKey === null) throw new Error("stored developer key cannot be decrypted (wrong HOOT_SECRET_KEY?)");
  return { pk: user.id, name: user.name, email: user.email, api_key: apiKey, teams: await teamsOf(deps, user.id) };
}

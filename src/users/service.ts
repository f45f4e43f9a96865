/**
 * Developer rules: e-mail addresses identify developers (stored lower-cased, unique); each developer has one
 * key (shown in /api/users/me), rotated on demand; rotating the key, deleting the developer or removing them
 * from a team ends the tokens concerned at once (tokens are checked against the key version and the team's
 * membership on every use). A developer's key is shown only to that developer, and once to the operator (or
 * admin command) that created them; a developer of a team can only invite an e-mail (invitations/), never
 * create an account or attach an existing one to a team.
 */
import type { Deps } from "../deps.ts";
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../errors.ts";
import { generateKey, type Caller } from "../auth/index.ts";
import { asCreatedSdkServiceAccount, createServiceAccount } from "../service-accounts/service.ts";
import type { CreatedSdkServiceAccount } from "../service-accounts/model.ts";
import type { User } from "../db/schema.ts";
import { joinTeam, leaveTeam, requireTeam, requireTeamById, teamsByUser, teamsOf } from "../teams/service.ts";
import { inviteToTeam } from "../invitations/service.ts";
import { deleteUser, findUserByEmail, getUser, insertUser, listUsers, replaceUserKey, updateUserName } from "./repo.ts";
import { normalizeEmail } from "./email.ts";
import type { CreateUserBody, CreatedDeveloper, InvitedDeveloper, Me, UserBody } from "./model.ts";

type UserDeps = Pick<Deps, "db" | "secrets" | "config" | "revocations">;

/**
 * Creates the developer if new (with a fresh key) and adds them to the team; `apiKey` is set only when created.
 * For the operator's tools only (admin command, start-up): it attaches an existing developer without asking them.
 */
export function createDeveloper(deps: UserDeps, input: { teamName: string; email: string; name: string }): { user: User; apiKey: string | null; teamId: number } {
  const person = checked(input);
  return deps.db.transaction(() => {
    const team = requireTeam(deps, input.teamName);
    const { user, apiKey } = findOrCreate(deps, person);
    joinTeam(deps, team.id, user.id);
    return { user, apiKey, teamId: team.id };
  });
}

/**
 * Creates the developer if new (with a fresh key) and adds them to the team; `apiKey` is set only when created.
 * For the operator's tools only (admin command, start-up): it attaches an existing developer without asking them.
 *//** Creates a developer in no team yet (operator); 409 `email_taken` when the e-mail is known. */
export function registerDeveloper(deps: UserDeps, input: { email: string; name: string }): CreatedDeveloper {
  const person = checked(input);
  return deps.db.transaction(() => {
    if (findUserByEmail(deps.db, person.email)) throw new Conflict(`A developer with e-mail "${person.email}" already exists.`, "email_taken");
    const { user, apiKey } = insertDeveloper(deps, person);
    return { pk: user.id, name: user.name, email: user.email, user_type: "user", api_key: apiKey };
  });
}

/** Every developer with their teams (operator). */
export function listDevelopers(deps: UserDeps): UserBody[] {
  const teams = teamsByUser(deps);
  return listUsers(deps.db).map((user) => show(user, teams.get(user.id) ?? []));
}

/** The developer `id` with their teams, or 404. */
export function getDeveloper(deps: UserDeps, id: number): UserBody {
  const user = getUser(deps.db, id);
  if (!user) throw new NotFound("user");
  return show(user, teamsOf(deps, id));
}

/** Renames the developer `id` (an absent name changes nothing), or 404. */
export function renameDeveloper(deps: UserDeps, id: number, name: string | undefined): UserBody {
  const trimmed = name?.trim();
  if (trimmed) {
    if (!updateUserName(deps.db, id, trimmed)) throw new NotFound("user");
  }
  return getDeveloper(deps, id);
}

/** Deletes the developer `id` and their memberships; their key and tokens stop working at once. */
export function removeDeveloper(deps: UserDeps, id: number): void {
  if (!deleteUser(deps.db, id)) throw new NotFound("user");
  deps.revocations.publish({ kind: "user", userId: id });
}

/** Deletes the calling developer, only where the operator allows it (HOOT_ALLOW_SELF_DELETE). */
export function removeSelf(deps: UserDeps, id: number): void {
  if (!deps.config.allowSelfDelete) {
    throw new Forbidden("Deleting your own account is switched off on this server; ask its operator (HOOT_ALLOW_SELF_DELETE).");
  }
  removeDeveloper(deps, id);
}

/** Adds the developer `userId` to the team `teamId` (operator); 404 when either is absent. */
export function addDeveloperToTeam(deps: UserDeps, userId: number, teamId: number): UserBody {
  return deps.db.transaction(() => {
    const developer = getDeveloper(deps, userId);
    requireTeamById(deps, teamId);
    joinTeam(deps, teamId, userId);
    return { ...developer, teams: teamsOf(deps, userId) };
  });
}

/** Removes the developer `userId` from the team `teamId` (operator); 404 when they were not a member. */
export function removeDeveloperFromTeam(deps: UserDeps, userId: number, teamId: number): void {
  if (!leaveTeam(deps, teamId, userId)) throw new NotFound("membership");
}

/**
 * POST /api/users as the hosted engine's SDKs use it: a service account of the caller's team (user_type
 * playerLogin / playerCreate, 201); with a developer token and user_type user, an invitation of that e-mail
 * to the caller's team (202, the same answer whether the e-mail has an account or not, and never a key);
 * for the operator, a new developer in no team (201, the key shown this once).
 */
export function createUser(
  deps: UserDeps,
  caller: Caller,
  body: CreateUserBody,
): { status: 201; body: CreatedDeveloper | CreatedSdkServiceAccount } | { status: 202; body: InvitedDeveloper } {
  const type = body.user_type ?? "user";
  const email = body.email?.trim() || undefined;
  if (type !== "user") {
    if (caller.kind !== "developer") {
      throw new InvalidRequest("A service account belongs to a team: create it with a developer token of that team (or hoot admin create-service-account).");
    }
    const account = createServiceAccount(deps, caller.teamId, body.name.trim(), type === "playerCreate");
    return { status: 201, body: asCreatedSdkServiceAccount(account) };
  }
  if (email === undefined) throw new InvalidRequest('Field "email" is required for user_type "user".');
  if (caller.kind === "developer") {
    // Already a member or already invited answers the same: the caller learns nothing about other accounts.
    const outcome = inviteToTeam(deps, { teamId: caller.teamId, email, invitedBy: caller.userId });
    return { status: 202, body: { email: outcome.email, invited: true } };
  }
  if (caller.kind !== "operator") throw new Forbidden();
  return { status: 201, body: registerDeveloper(deps, { email, name: body.name }) };
}

function checked(input: { email: string; name: string }): { email: string; name: string } {
  const email = normalizeEmail(input.email);
  const name = input.name.trim();
  if (!name) throw new InvalidRequest("The developer's name must not be empty.");
  return { email, name };
}

// Call inside a transaction: the e-mail check and the insert must not interleave with another writer.
function findOrCreate(deps: UserDeps, person: { email: string; name: string }): { user: User; apiKey: string | null } {
  const known = findUserByEmail(deps.db, person.email);
  if (known) return { user: known, apiKey: null };
  return insertDeveloper(deps, person);
}

function insertDeveloper(deps: UserDeps, person: { email: string; name: string }): { user: User; apiKey: string } {
  const apiKey = generateKey("dk", deps.config.env);
  const user = insertUser(deps.db, { name: person.name, email: person.email, apiKeyEnc: deps.secrets.encrypt(apiKey), apiKeyHash: deps.secrets.lookupHash(apiKey) });
  return { user, apiKey };
}

function show(user: User, teams: UserBody["teams"]): UserBody {
  return { pk: user.id, name: user.name, email: user.email, user_type: "user", teams, created_at: new Date(user.createdAt).toISOString() };
}

/** Gives the developer a new key; the old key and every token it minted stop working at once. */
export function rotateDeveloperKey(deps: UserDeps, userId: number): { user: User; apiKey: string } {
  const apiKey = generateKey("dk", deps.config.env);
  const user = replaceUserKey(deps.db, userId, deps.secrets.encrypt(apiKey), deps.secrets.lookupHash(apiKey));
  if (!user) throw new NotFound("developer");
  deps.revocations.publish({ kind: "user", userId });
  return { user, apiKey };
}

/** Rotates the key of the developer with `email` (admin command). */
export function rotateDeveloperKeyByEmail(deps: UserDeps, email: string): { user: User; apiKey: string } {
  const user = findUserByEmail(deps.db, email.trim().toLowerCase());
  if (!user) throw new NotFound(`developer with e-mail "${email}"`);
  return rotateDeveloperKey(deps, user.id);
}

/** The /api/users/me body for `userId`. */
export function describeMe(deps: UserDeps, userId: number): Me {
  const user = getUser(deps.db, userId);
  if (!user) throw new NotFound("developer");
  const apiKey = deps.secrets.decrypt(user.apiKeyEnc);
  if (apiKey === null) throw new Error("stored developer key cannot be decrypted (wrong HOOT_SECRET_KEY?)");
  return { pk: user.id, name: user.name, email: user.email, api_key: apiKey, teams: teamsOf(deps, user.id) };
}

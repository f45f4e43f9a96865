/** Developer rules: one developer key per user (shown in /api/users/me), rotated on demand, ending old tokens. */
import type { Deps } from "../deps.ts";
import { InvalidRequest, NotFound } from "../errors.ts";
import { generateKey } from "../auth/index.ts";
import type { User } from "../db/schema.ts";
import { joinTeam, requireTeam, teamsOf } from "../teams/service.ts";
import { findUserByEmail, getUser, insertUser, replaceUserKey } from "./repo.ts";
import type { Me } from "./model.ts";

type UserDeps = Pick<Deps, "db" | "secrets" | "config" | "revocations">;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Creates the developer if new (with a fresh key) and adds them to the team; `apiKey` is set only when created. */
export function createDeveloper(deps: UserDeps, input: { teamName: string; email: string; name: string }): { user: User; apiKey: string | null; teamId: number } {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new InvalidRequest(`"${input.email}" is not an e-mail address.`);
  if (!input.name.trim()) throw new InvalidRequest("The developer's name must not be empty.");
  return deps.db.transaction(() => {
    const team = requireTeam(deps, input.teamName);
    let user = findUserByEmail(deps.db, email);
    let apiKey: string | null = null;
    if (!user) {
      apiKey = generateKey("dk", deps.config.env);
      user = insertUser(deps.db, { name: input.name.trim(), email, apiKeyEnc: deps.secrets.encrypt(apiKey), apiKeyHash: deps.secrets.lookupHash(apiKey) });
    }
    joinTeam(deps, team.id, user.id);
    return { user, apiKey, teamId: team.id };
  });
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

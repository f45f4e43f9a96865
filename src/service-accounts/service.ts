/**
 * Service account rules: names are unique per team; a login-only key is public (it ships inside apps) and
 * is listed in full; a playerCreate key is a backend secret, shown in full only when created. Deleting an
 * account ends its tokens and the sockets of the players it logged in. A team has at most
 * HOOT_MAX_SERVICE_ACCOUNTS_PER_TEAM accounts (409 limit_reached past it).
 */

import { generateKey, maskKey } from "../auth/index.ts";
import type { RevocationBus } from "../auth/revocations.ts";
import type { Secrets } from "../auth/secrets.ts";
import type { Config } from "../config.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { ServiceAccount } from "../db/schema.ts";
import type { Store } from "../db/store.ts";
import { Conflict, LimitReached, NotFound } from "../errors.ts";
import type { CreatedSdkServiceAccount, SdkServiceAccount, ServiceAccountBody } from "./model.ts";
import type { ServiceAccountRepo } from "./repo.ts";

/** The repositories the service accounts feature uses. */
export type ServiceAccountRepositories = { serviceAccounts: ServiceAccountRepo };

/** What the service accounts feature needs. */
export interface ServiceAccountNeeds {
  store: Store<ServiceAccountRepositories>;
  secrets: Secrets;
  config: Pick<Config, "env" | "maxServiceAccountsPerTeam">;
  revocations: Pick<RevocationBus, "publish">;
}

/** Creates a service account; the answer holds its key in full. 409 `name_taken` when the team has one of that name. */
export async function createServiceAccount(deps: ServiceAccountNeeds, teamId: number, name: string, playerCreate: boolean): Promise<ServiceAccountBody> {
  const apiKey = generateKey("sk", deps.config.env);
  const taken = () => new Conflict(`A service account named "${name}" already exists in the team.`, "name_taken");
  try {
    const row = await deps.store.transaction(async (tx) => {
      if (await tx.serviceAccounts.findByName(teamId, name)) throw taken();
      const cap = deps.config.maxServiceAccountsPerTeam;
      if ((await tx.serviceAccounts.list(teamId)).length >= cap)
        throw new LimitReached("service accounts", cap, "HOOT_MAX_SERVICE_ACCOUNTS_PER_TEAM", "delete one before creating another");
      return tx.serviceAccounts.insert({ teamId, name, playerCreate, keyEnc: deps.secrets.encrypt(apiKey), keyHash: deps.secrets.lookupHash(apiKey) });
    });
    return show(row, apiKey);
  } catch (error) {
    // Two requests naming the same account at once (PostgreSQL): the unique index refuses the second.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** The team's service accounts; playerCreate keys masked. */
export async function listTeamServiceAccounts(deps: ServiceAccountNeeds, teamId: number): Promise<ServiceAccountBody[]> {
  return (await deps.store.serviceAccounts.list(teamId)).map((row) => {
    const key = deps.secrets.decrypt(row.keyEnc) ?? "";
    return show(row, row.playerCreate ? maskKey(key) : key);
  });
}

/** Deletes the team's service account `id` and ends its tokens. */
export async function removeServiceAccount(deps: ServiceAccountNeeds, teamId: number, id: number): Promise<void> {
  if (!(await deps.store.serviceAccounts.delete(teamId, id))) throw new NotFound("service account");
  deps.store.afterCommit(() => deps.revocations.publish({ kind: "service-account", serviceAccountId: id }));
}

/** Deletes every service account of a team (team deletion) and, once that commits, ends their tokens and players' sockets. */
export async function removeTeamServiceAccounts(deps: ServiceAccountNeeds, teamId: number): Promise<void> {
  const ids = await deps.store.serviceAccounts.deleteOfTeam(teamId);
  deps.store.afterCommit(() => {
    for (const id of ids) deps.revocations.publish({ kind: "service-account", serviceAccountId: id });
  });
}

/** The hosted engine's view of a service account: a "user" whose `user_type` is its strongest permission. */
export function asSdkServiceAccount(body: ServiceAccountBody): SdkServiceAccount {
  return { pk: body.pk, name: body.name, user_type: userTypeOf(body), created_at: body.created_at };
}

/** The hosted engine's creation answer: the key in full, this once. */
export function asCreatedSdkServiceAccount(body: ServiceAccountBody): CreatedSdkServiceAccount {
  return { pk: body.pk, name: body.name, user_type: userTypeOf(body), api_key: body.api_key };
}

function userTypeOf(body: ServiceAccountBody): "playerLogin" | "playerCreate" {
  return body.permissions.includes("playerCreate") ? "playerCreate" : "playerLogin";
}

function show(row: ServiceAccount, apiKey: string): ServiceAccountBody {
  return {
    pk: row.id,
    name: row.name,
    permissions: row.playerCreate ? ["playerLogin", "playerCreate"] : ["playerLogin"],
    api_key: apiKey,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/**
 * The service-accounts feature: a team's app keys. A login-only key ships inside the app and logs players
 * in; a playerCreate key is a backend secret that may also create players.
 * Routes: GET|POST /api/service-accounts, DELETE /api/service-accounts/{pk} (developer only, team-scoped), and
 * GET /api/users/service_accounts, the hosted engine's listing. Creating one the hosted engine's way
 * (POST /api/users with user_type playerLogin or playerCreate) is routed by users/.
 */
import { Elysia, t } from "elysia";
import { type AuthNeeds, authPlugin } from "../auth/index.ts";
import { noContent } from "../http/no-content.ts";
import { CreateServiceAccountBody, SdkServiceAccountList, ServiceAccountBody, ServiceAccountParams } from "./model.ts";
import type { ServiceAccountNeeds } from "./service.ts";
import { asSdkServiceAccount, createServiceAccount, listTeamServiceAccounts, removeServiceAccount } from "./service.ts";

/** The service accounts controller. */
export function serviceAccountsRoutes(deps: AuthNeeds & ServiceAccountNeeds) {
  return new Elysia({ name: "service-accounts", detail: { tags: ["Service accounts"] } })
    .use(authPlugin(deps))
    .get("/api/service-accounts", async ({ caller }) => ({ service_accounts: await listTeamServiceAccounts(deps, caller.teamId) }), {
      auth: ["developer"],
      response: t.Object({ service_accounts: t.Array(ServiceAccountBody) }),
      detail: { summary: "List service accounts" },
    })
    .post(
      "/api/service-accounts",
      ({ caller, body, set }) => {
        set.status = 201;
        return createServiceAccount(deps, caller.teamId, body.name, (body.permissions ?? []).includes("playerCreate"));
      },
      {
        auth: ["developer"],
        body: CreateServiceAccountBody,
        response: { 201: ServiceAccountBody },
        detail: { summary: "Create a service account", description: "The answer is the only time a playerCreate key is shown in full." },
      },
    )
    .delete(
      "/api/service-accounts/:pk",
      async ({ caller, params }) => {
        await removeServiceAccount(deps, caller.teamId, Number(params.pk));
        return noContent();
      },
      { auth: ["developer"], params: ServiceAccountParams, detail: { summary: "Delete a service account", description: "Its tokens stop working at once." } },
    )
    .get(
      "/api/users/service_accounts",
      async ({ caller }) => ({ service_accounts: (await listTeamServiceAccounts(deps, caller.teamId)).map(asSdkServiceAccount) }),
      {
        auth: ["developer"],
        response: SdkServiceAccountList,
        detail: {
          summary: "List service accounts (hosted engine's shape)",
          description: "The team's service accounts as the hosted engine's SDKs read them; user_type is playerLogin or playerCreate.",
        },
      },
    );
}

/** Authentication: the team's service-account keys. */
import { Elysia } from "elysia";
import { noContent } from "../../http/no-content.ts";
import { CreateKeyBody, PkParams } from "../model.ts";
import * as services from "../services.ts";
import { type ConsoleContext, consoleSessionPlugin } from "./common.ts";

/** The service-account key routes. */
export function consoleKeyRoutes(context: ConsoleContext) {
  const { deps } = context;
  return new Elysia({ name: "console-keys", detail: { hide: true } })
    .use(consoleSessionPlugin(deps))
    .post(
      "/console/api/service-accounts",
      ({ session, body, set }) => {
        set.status = 201;
        return services.createServiceAccount(deps, session.teamId, body.name.trim(), body.player_create === true);
      },
      { consoleSession: "write", body: CreateKeyBody },
    )
    .get("/console/api/service-accounts", async ({ session }) => ({ service_accounts: await services.listServiceAccounts(deps, session.teamId) }), {
      consoleSession: "read",
    })
    .delete(
      "/console/api/service-accounts/:pk",
      async ({ session, params }) => {
        await services.deleteServiceAccount(deps, session.teamId, Number(params.pk));
        return noContent();
      },
      { consoleSession: "write", params: PkParams },
    );
}

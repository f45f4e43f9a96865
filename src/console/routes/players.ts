/** Players: test players, their federated ids and player tokens. */
import { Elysia } from "elysia";
import { noContent } from "../../http/no-content.ts";
import { CreateTestPlayerBody, PkParams, PlayersQuery } from "../model.ts";
import * as services from "../services.ts";
import { randomToken } from "../sessions.ts";
import { type ConsoleContext, consoleAudit, consoleSessionPlugin } from "./common.ts";

/** The test player routes. */
export function consolePlayerRoutes(context: ConsoleContext) {
  const { deps, address } = context;
  return new Elysia({ name: "console-players", detail: { hide: true } })
    .use(consoleSessionPlugin(deps))
    .post(
      "/console/api/players",
      ({ session, body, set }) => {
        set.status = 201;
        const externalId = body.external_id?.trim() || `test-${randomToken().slice(0, 8)}`;
        return services.players(deps).create(session.teamId, externalId);
      },
      { consoleSession: "write", body: CreateTestPlayerBody },
    )
    .get(
      "/console/api/players",
      async ({ session, query }) => {
        const service = services.players(deps);
        const page = await service.list(session.teamId, query.after || undefined, query.limit ?? 20);
        // The API's list leaves external ids out (spec); the console shows them, read through the same service.
        return { players: await Promise.all(page.players.map((p) => service.get(session.teamId, p.pk))), next: page.next };
      },
      { consoleSession: "read", query: PlayersQuery },
    )
    .post("/console/api/players/:pk/reset-federated-id", ({ session, params }) => services.players(deps).resetFederatedId(session.teamId, Number(params.pk)), {
      consoleSession: "write",
      params: PkParams,
    })
    .delete(
      "/console/api/players/:pk",
      async ({ session, params, set }) => {
        await services.players(deps).remove(session.teamId, Number(params.pk), consoleAudit(session, set));
        return noContent();
      },
      { consoleSession: "write", params: PkParams },
    )
    .post(
      "/console/api/players/:pk/token",
      ({ session, params, request, server }) => services.playerToken(deps, session.teamId, Number(params.pk), address(request, server)),
      { consoleSession: "write", params: PkParams },
    );
}

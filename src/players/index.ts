/**
 * The players feature: the children who use a team's app, each known to hoot by the developer's own
 * `external_id` and a secret federated id the app logs them in with. Deleting a player deletes their
 * conversation too. Routes: /api/players (create, list), /api/players/{player_pk} (get, edit, delete), and
 * /api/players/{player_pk}/reset-federated-id. Registered under a prefix so `GET /api/players/` and
 * `POST /api/players` do not clash in Elysia's router.
 */
import { Elysia } from "elysia";
import { type AuthNeeds, authPlugin } from "../auth/index.ts";
import { noContent } from "../http/no-content.ts";
import { CreatePlayerBody, EditPlayerBody, ListPlayersQuery, PlayerBody, PlayerList, PlayerParams } from "./model.ts";
import type { PlayerNeeds } from "./service.ts";
import { createPlayer, editPlayer, getPlayer, listTeamPlayers, removePlayer, resetFederatedId } from "./service.ts";

/** The players controller. */
export function playersRoutes(deps: AuthNeeds & PlayerNeeds) {
  const list = ({ caller, query }: { caller: { teamId: number }; query: { after?: string; limit?: number } }) =>
    listTeamPlayers(deps, caller.teamId, query.after, query.limit ?? 100);
  const listOptions = {
    auth: ["developer"] as ["developer"],
    query: ListPlayersQuery,
    response: PlayerList,
    detail: { summary: "List players", description: "Players of the caller's team ordered by pk; page with `limit` and `after` (the previous page's `next`)." },
  };
  return (
    new Elysia({ prefix: "/api/players", name: "players", detail: { tags: ["Players"] } })
      .use(authPlugin(deps))
      // POST before GET: registered the other way round, Elysia's router loses POST /api/players.
      .post(
        "",
        ({ caller, body, set }) => {
          set.status = 201;
          return createPlayer(deps, caller.teamId, body.external_id);
        },
        {
          auth: ["developer", "service", "developer-key"],
          body: CreatePlayerBody,
          response: { 201: PlayerBody },
          detail: {
            summary: "Create a player",
            description:
              "Accepts a developer token, a playerCreate service token, or the developer API key itself as the Bearer value. The federated_id is a secret.",
          },
        },
      )
      .get("/", list, listOptions)
      .get("", list, { ...listOptions, detail: { ...listOptions.detail, hide: true } })
      .get("/:player_pk", ({ caller, params }) => getPlayer(deps, caller.teamId, Number(params.player_pk)), {
        auth: ["developer"],
        params: PlayerParams,
        response: PlayerBody,
        detail: { summary: "Get a player" },
      })
      .patch("/:player_pk", ({ caller, params, body }) => editPlayer(deps, caller.teamId, Number(params.player_pk), body.external_id), {
        auth: ["developer"],
        params: PlayerParams,
        body: EditPlayerBody,
        response: PlayerBody,
        detail: { summary: "Edit a player's external_id" },
      })
      .delete(
        "/:player_pk",
        async ({ caller, params }) => {
          await removePlayer(deps, caller.teamId, Number(params.player_pk));
          return noContent();
        },
        {
          auth: ["developer"],
          params: PlayerParams,
          detail: {
            summary: "Delete a player",
            description: "Deletes the player and their conversation in one transaction, ends their tokens and closes their sockets.",
          },
        },
      )
      .post("/:player_pk/reset-federated-id", ({ caller, params }) => resetFederatedId(deps, caller.teamId, Number(params.player_pk)), {
        auth: ["developer"],
        params: PlayerParams,
        response: PlayerBody,
        detail: { summary: "Give a player a new federated id", description: "For a federated id that leaked: the old id and its tokens stop working at once." },
      })
  );
}

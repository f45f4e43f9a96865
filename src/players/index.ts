/**
 * The players feature: the children who use a team's app, each known to hoot by the developer's own
 * `external_id` and a secret federated id the app logs them in with. Deleting a player deletes their
 * conversation too. Routes: /api/players (create, list), /api/players/{player_pk} (get, edit, delete),
 * /api/players/{player_pk}/reset-federated-id, and a parent's requests (PROTOCOL.md section 8, privacy.ts):
 * consent through PATCH, GET /api/players/{player_pk}/data and DELETE /api/players/{player_pk}/history.
 * Registered under a prefix so `GET /api/players/` and `POST /api/players` do not clash in Elysia's router.
 */
import { Elysia } from "elysia";
import { auditContext } from "../audit/service.ts";
import { type AuthNeeds, authPlugin } from "../auth/index.ts";
import { noContent } from "../http/no-content.ts";
import { CreatePlayerBody, EditPlayerBody, ListPlayersQuery, PlayerBody, PlayerExport, PlayerList, PlayerParams } from "./model.ts";
import { eraseHistory, exportPlayer, type PlayerDataNeeds, updatePlayer } from "./privacy.ts";
import { createPlayer, getPlayer, listTeamPlayers, removePlayer, resetFederatedId } from "./service.ts";

/** The players controller. */
export function playersRoutes(deps: AuthNeeds & PlayerDataNeeds) {
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
      .get("/:player_pk", ({ caller, params, set }) => getPlayer(deps, caller.teamId, Number(params.player_pk), auditContext(caller, set)), {
        auth: ["developer"],
        params: PlayerParams,
        response: PlayerBody,
        detail: { summary: "Get a player", description: "Audited as `player.read`." },
      })
      .patch("/:player_pk", ({ caller, params, body, set }) => updatePlayer(deps, caller.teamId, Number(params.player_pk), body, auditContext(caller, set)), {
        auth: ["developer", "service"],
        params: PlayerParams,
        body: EditPlayerBody,
        response: PlayerBody,
        detail: {
          summary: "Edit a player's external_id or consent",
          description:
            "`consent` (none or granted) takes a developer token or a playerCreate service token of the team, and is " +
            "audited as `player.consent`; `external_id` takes a developer token.",
        },
      })
      .delete(
        "/:player_pk",
        async ({ caller, params, set }) => {
          await removePlayer(deps, caller.teamId, Number(params.player_pk), auditContext(caller, set));
          return noContent();
        },
        {
          auth: ["developer"],
          params: PlayerParams,
          detail: {
            summary: "Delete a player",
            description:
              "Deletes the player and their conversation in one transaction, ends their tokens and closes their " +
              "sockets. Audited as `player.delete`; the audit rows stay.",
          },
        },
      )
      .get(
        "/:player_pk/data",
        async ({ caller, params, set }) => jsonResponse(await exportPlayer(deps, caller.teamId, Number(params.player_pk), auditContext(caller, set))),
        {
          auth: ["developer"],
          params: PlayerParams,
          // Documents the streamed document (a Response is sent as it is, not checked against it).
          response: PlayerExport,
          detail: {
            summary: "Everything hoot holds about a player",
            description:
              "One JSON document for a parent's request: the player, their consent, the conversation history decrypted with times, the memory " +
              "the model is given, and safety incidents (never any words). Audited as `player.export`.",
          },
        },
      )
      .delete(
        "/:player_pk/history",
        async ({ caller, params, set }) => {
          await eraseHistory(deps, caller.teamId, Number(params.player_pk), auditContext(caller, set));
          return noContent();
        },
        {
          auth: ["developer"],
          params: PlayerParams,
          detail: {
            summary: "Erase a player's conversation history",
            description:
              "Erases the player's stored conversation (their memory) and keeps the player, their consent and their incidents; the words are " +
              "scrubbed from the database files as for a deletion. Audited as `player.history_erase`.",
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

// A streamed JSON document as the answer (the export: written as it is read, see privacy.ts).
function jsonResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } });
}

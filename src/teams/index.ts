/**
 * The teams feature: teams, their names and who belongs to them (developers are members; service accounts
 * and players belong to one team). Routes: GET /api/teams (a developer's own teams, or every team for the
 * operator), the operator's POST /api/teams, GET|DELETE /api/teams/{team_pk}, and PATCH /api/teams/{team_pk}
 * (the operator renames; the team's own developer or the operator sets `require_consent`).
 */
import { Elysia } from "elysia";
import { requestIdOf } from "../audit/service.ts";
import { type AuthNeeds, authPlugin, developerId } from "../auth/index.ts";
import { noContent } from "../http/no-content.ts";
import { operatorOnly } from "../operator/routes.ts";
import { CreateTeamBody, EditTeamBody, TeamEnvelope, TeamList, TeamParams } from "./model.ts";
import type { DeleteTeamNeeds, TeamNeeds } from "./service.ts";
import { createTeam, deleteTeam, editTeam, getTeam, listAllTeams, teamsOf } from "./service.ts";

/** The teams controller. */
export function teamsRoutes(deps: AuthNeeds & TeamNeeds & DeleteTeamNeeds) {
  return new Elysia({ name: "teams", detail: { tags: ["Teams"] } })
    .use(authPlugin(deps))
    .get("/api/teams", async ({ caller }) => ({ teams: await (caller.kind === "operator" ? listAllTeams(deps) : teamsOf(deps, developerId(caller))) }), {
      access: ["developer", "operator"],
      response: TeamList,
      detail: { summary: "List teams", description: "A developer's own teams; every team for the operator." },
    })
    .post(
      "/api/teams",
      async ({ body, set }) => {
        set.status = 201;
        return { team: await getTeam(deps, (await createTeam(deps, body.name.trim())).id) };
      },
      { access: ["operator"], body: CreateTeamBody, response: { 201: TeamEnvelope }, detail: { summary: "Create a team (operator)" } },
    )
    .get("/api/teams/:team_pk", async ({ params }) => ({ team: await getTeam(deps, Number(params.team_pk)) }), {
      ...operatorOnly(TeamParams, "Get a team"),
      response: TeamEnvelope,
    })
    .patch(
      "/api/teams/:team_pk",
      async ({ caller, params, body }) => {
        const by = caller.kind === "operator" ? "operator" : { developerOf: caller.kind === "developer" ? caller.teamId : null };
        return { team: await editTeam(deps, by, Number(params.team_pk), { name: body.name?.trim() || undefined, requireConsent: body.require_consent }) };
      },
      {
        access: ["developer", "operator"],
        params: TeamParams,
        body: EditTeamBody,
        response: TeamEnvelope,
        detail: {
          summary: "Edit a team",
          description:
            "`name`: the operator renames a team. `require_consent`: the team's own developer (or the operator) " +
            "turns data-lite mode for players without consent on or off.",
        },
      },
    )
    .delete(
      "/api/teams/:team_pk",
      async ({ caller, params, set }) => {
        // Each player deleted with the team gets its `player.delete` audit row, which outlives the team.
        const actor = { kind: "operator" as const, pk: caller.kind === "operator" ? caller.operatorKeyId : null };
        await deleteTeam(deps, Number(params.team_pk), { actor, requestId: requestIdOf(set) });
        return noContent();
      },
      {
        ...operatorOnly(
          TeamParams,
          "Delete a team",
          "Deletes its players and their conversations, its service accounts and memberships; every token and socket of the team ends at once.",
        ),
      },
    );
}

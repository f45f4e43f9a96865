/**
 * The teams feature: teams, their names and who belongs to them (developers are members; service accounts
 * and players belong to one team). Routes: GET /api/teams (a developer's own teams, or every team for the
 * operator), and the operator's POST /api/teams, GET|PATCH|DELETE /api/teams/{team_pk}.
 */
import { Elysia } from "elysia";
import { type AuthNeeds, authPlugin, developerId } from "../auth/index.ts";
import { noContent } from "../http/no-content.ts";
import { operatorOnly } from "../operator/routes.ts";
import { CreateTeamBody, EditTeamBody, TeamEnvelope, TeamList, TeamParams } from "./model.ts";
import type { DeleteTeamNeeds, TeamNeeds } from "./service.ts";
import { createTeam, deleteTeam, getTeam, listAllTeams, renameTeam, teamsOf } from "./service.ts";

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
    .patch("/api/teams/:team_pk", async ({ params, body }) => ({ team: await renameTeam(deps, Number(params.team_pk), body.name?.trim() || undefined) }), {
      ...operatorOnly(TeamParams, "Rename a team"),
      body: EditTeamBody,
      response: TeamEnvelope,
    })
    .delete("/api/teams/:team_pk", async ({ params }) => (await deleteTeam(deps, Number(params.team_pk)), noContent()), {
      ...operatorOnly(
        TeamParams,
        "Delete a team",
        "Deletes its players and their conversations, its service accounts and memberships; every token and socket of the team ends at once.",
      ),
    });
}

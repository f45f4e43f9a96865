/**
 * The safety incidents feature: escalations recorded without any text, listed for the team's developers so
 * their app can tell a parent. Route: GET /api/safety/incidents (developer token, team-scoped).
 */
import { Elysia } from "elysia";
import { type AuthNeeds, authPlugin } from "../auth/index.ts";
import { IncidentList, ListIncidentsQuery } from "./model.ts";
import type { IncidentNeeds } from "./service.ts";
import { listTeamIncidents } from "./service.ts";

/** The incidents controller. */
export function incidentsRoutes(deps: AuthNeeds & IncidentNeeds) {
  return new Elysia({ name: "incidents", detail: { tags: ["Safety"] } })
    .use(authPlugin(deps))
    .get("/api/safety/incidents", ({ caller, query }) => listTeamIncidents(deps, caller.teamId, query), {
      auth: ["developer"],
      query: ListIncidentsQuery,
      response: IncidentList,
      detail: {
        summary: "List safety incidents",
        description:
          "The team's incidents, newest first: player, session, category, action, direction, policy and time, never any text. Page with `limit` and " +
          "`after` (the previous page's `next`); `player_pk` keeps one player's.",
      },
    });
}

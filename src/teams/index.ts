/**
 * The teams feature: teams, their names and who belongs to them (developers are members; service accounts
 * and players belong to one team). Routes: GET /api/teams.
 */
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { authPlugin, developerId } from "../auth/index.ts";
import { TeamList } from "./model.ts";
import { teamsOf } from "./service.ts";

/** The teams controller. */
export function teamsRoutes(deps: Deps) {
  return new Elysia({ name: "teams", detail: { tags: ["Teams"] } })
    .use(authPlugin(deps))
    .get("/api/teams", ({ caller }) => ({ teams: teamsOf(deps, developerId(caller)) }), {
      auth: ["developer"],
      response: TeamList,
      detail: { summary: "My teams" },
    });
}

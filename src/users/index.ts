/**
 * The users feature: developers (people with a developer key who manage a team's players) and their keys.
 * Routes: GET /api/users/me, POST /api/users/me/api-key.
 */
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { authPlugin, developerId } from "../auth/index.ts";
import { Me, RotatedKey } from "./model.ts";
import { describeMe, rotateDeveloperKey } from "./service.ts";

/** The users controller. */
export function usersRoutes(deps: Deps) {
  return new Elysia({ name: "users", detail: { tags: ["Users"] } })
    .use(authPlugin(deps))
    .get("/api/users/me", ({ caller }) => describeMe(deps, developerId(caller)), {
      auth: ["developer"],
      response: Me,
      detail: { summary: "Current developer", description: "The developer behind the token, with their API key and teams." },
    })
    .post("/api/users/me/api-key", ({ caller }) => ({ api_key: rotateDeveloperKey(deps, developerId(caller)).apiKey }), {
      auth: ["developer"],
      response: RotatedKey,
      detail: { summary: "Rotate my developer key", description: "The old key and every token it minted stop working at once." },
    });
}

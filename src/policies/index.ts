/**
 * The policies feature: which safety policies a configuration may name. Today the engine's built-in ones;
 * a team's own policies come with a later issue. Routes: GET /api/policies.
 */
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { authPlugin } from "../auth/index.ts";
import { listPolicies } from "./catalog.ts";

const PolicyList = t.Object({
  policies: t.Array(t.Object({ name: t.String(), description: t.String(), builtin: t.Boolean() })),
});

/** The policies controller. */
export function policiesRoutes(deps: Deps) {
  return new Elysia({ name: "policies", detail: { tags: ["Policies"] } })
    .use(authPlugin(deps))
    .get("/api/policies", () => ({ policies: listPolicies() }), {
      access: ["developer", "service", "operator"],
      response: PolicyList,
      detail: { summary: "Safety policies", description: 'The policies a configuration may name in safety_policy; "default" names the strictest built-in children\'s policy.' },
    });
}

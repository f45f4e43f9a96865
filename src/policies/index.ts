/**
 * The policies feature: which safety policies a configuration may name, the built-in ones and the caller's
 * team's own (managed under /api/safety-policies). Routes: GET /api/policies.
 */
import { Elysia, t } from "elysia";
import { type AuthNeeds, authPlugin } from "../auth/index.ts";
import type { SafetyPolicyNeeds } from "../safety-policies/service.ts";
import { listPolicies } from "./catalog.ts";

const PolicyList = t.Object({
  policies: t.Array(t.Object({ name: t.String(), description: t.String(), builtin: t.Boolean() })),
});

/** The policies controller. */
export function policiesRoutes(deps: AuthNeeds & SafetyPolicyNeeds) {
  return new Elysia({ name: "policies", detail: { tags: ["Policies"] } })
    .use(authPlugin(deps))
    .get("/api/policies", async ({ caller }) => ({ policies: await listPolicies(deps, caller.kind === "operator" ? null : caller.teamId) }), {
      access: ["developer", "service", "operator"],
      response: PolicyList,
      detail: {
        summary: "Safety policies",
        description:
          "The policies a configuration may name in safety_policy: the built-in ones (\"default\" names the strictest children's policy), then the team's own.",
      },
    });
}

/**
 * The team safety policies feature: a team's own policies, which a configuration names in `safety_policy`
 * (by name or `{"reference": name}`). Routes (developer token, team-scoped; another team's policy is 404):
 * GET|POST /api/safety-policies, GET|PUT|DELETE /api/safety-policies/{name}.
 */
import { Elysia } from "elysia";
import { type AuthNeeds, authPlugin } from "../auth/index.ts";
import type { Config } from "../config.ts";
import { noContent } from "../http/no-content.ts";
import { PolicyParams, PolicyRequestBody, TeamPolicyList, TeamPolicyView } from "./model.ts";
import type { SafetyPolicyNeeds } from "./service.ts";
import { createTeamPolicy, deleteTeamPolicy, getTeamPolicy, listTeamPolicies, putTeamPolicy } from "./service.ts";

/** The team safety policies controller. */
export function safetyPoliciesRoutes(deps: AuthNeeds & SafetyPolicyNeeds & { config: Pick<Config, "maxSafetyPoliciesPerTeam"> }) {
  return new Elysia({ prefix: "/api/safety-policies", name: "safety-policies", detail: { tags: ["Safety"] } })
    .use(authPlugin(deps))
    .post(
      "",
      async ({ caller, body, set }) => {
        const policy = await createTeamPolicy(deps, caller.teamId, body);
        set.status = 201;
        return policy;
      },
      {
        auth: ["developer"],
        body: PolicyRequestBody,
        response: { 201: TeamPolicyView },
        detail: {
          summary: "Create a team safety policy",
          description:
            "A name and the policy: changes to a built-in base (per-category actions, redirect lines, blocked and allowed terms). 400 invalid_policy " +
            "names the field; 409 name_taken.",
        },
      },
    )
    .get("", async ({ caller }) => ({ policies: await listTeamPolicies(deps, caller.teamId) }), {
      auth: ["developer"],
      response: TeamPolicyList,
      detail: { summary: "List the team's safety policies" },
    })
    .get("/:name", ({ caller, params }) => getTeamPolicy(deps, caller.teamId, params.name), {
      auth: ["developer"],
      params: PolicyParams,
      response: TeamPolicyView,
      detail: { summary: "Get a team safety policy" },
    })
    .put(
      "/:name",
      async ({ caller, params, body, set }) => {
        const { created, policy } = await putTeamPolicy(deps, caller.teamId, params.name, body);
        set.status = created ? 201 : 200;
        return policy;
      },
      {
        auth: ["developer"],
        params: PolicyParams,
        body: PolicyRequestBody,
        response: { 200: TeamPolicyView, 201: TeamPolicyView },
        detail: {
          summary: "Create or replace a team safety policy",
          description:
            "201 when created, 200 when replaced. The body is the policy; the fields GET shows may be sent back (name must match the path; version, " +
            "when sent, must be the stored one, else 409). Sessions using the policy keep their copy until they reconfigure.",
        },
      },
    )
    .delete(
      "/:name",
      async ({ caller, params }) => {
        await deleteTeamPolicy(deps, caller.teamId, params.name);
        return noContent();
      },
      {
        auth: ["developer"],
        params: PolicyParams,
        detail: {
          summary: "Delete a team safety policy",
          description: "Sessions using it keep their copy until they reconfigure; a later set_configuration naming it fails.",
        },
      },
    );
}

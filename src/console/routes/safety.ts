/** The playground and safety: voices, policies, team policies and recent incidents. */
import { Elysia } from "elysia";
import { PolicyBody, PolicyNameParams } from "../model.ts";
import * as services from "../services.ts";
import { type ConsoleContext, consoleSessionPlugin } from "./common.ts";

/** The playground and safety routes. */
export function consoleSafetyRoutes(context: ConsoleContext, defaultPrompt: string) {
  const { deps } = context;
  return new Elysia({ name: "console-safety", detail: { hide: true } })
    .use(consoleSessionPlugin(deps))
    .get(
      "/console/api/playground",
      async ({ session }) => ({
        voices: services.voices(deps),
        policies: (await services.policies(deps, session.teamId)).map((p) => p.name),
        default_prompt: defaultPrompt,
      }),
      { consoleSession: "read" },
    )
    .get(
      "/console/api/safety",
      async ({ session }) => {
        const [policies, team_policies, incidents] = await Promise.all([
          services.policies(deps, session.teamId),
          services.teamPolicies(deps, session.teamId),
          services.recentIncidents(deps, session.teamId),
        ]);
        return { policies, team_policies, incidents };
      },
      { consoleSession: "read" },
    )
    .post(
      "/console/api/safety/policies",
      async ({ session, body, set }) => {
        const policy = await services.createTeamPolicy(deps, session.teamId, body);
        set.status = 201;
        return policy;
      },
      { consoleSession: "write", body: PolicyBody },
    )
    .put(
      "/console/api/safety/policies/:name",
      async ({ session, body, params, set }) => {
        const { created, policy } = await services.putTeamPolicy(deps, session.teamId, params.name, body);
        set.status = created ? 201 : 200;
        return policy;
      },
      { consoleSession: "write", body: PolicyBody, params: PolicyNameParams },
    );
}

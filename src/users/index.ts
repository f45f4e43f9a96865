/**
 * The users feature: developers (people with a developer key who manage a team's players) and their keys.
 * In the hosted engine's model service accounts are users too, so `POST /api/users` with user_type
 * playerLogin or playerCreate creates one through service-accounts/.
 * Routes: GET|PATCH|DELETE /api/users/me, POST /api/users/me/api-key, POST /api/users (developer or operator);
 * the operator's GET /api/users, GET|PATCH|DELETE /api/users/{user_pk},
 * POST|DELETE /api/users/{user_pk}/teams/{team_pk}.
 */
import { Elysia } from "elysia";
import { type AuthNeeds, authPlugin, developerId } from "../auth/index.ts";
import { noContent } from "../http/no-content.ts";
import { operatorOnly } from "../operator/routes.ts";
import { CreatedUser, CreateUserBody, EditUserBody, InvitedDeveloper, Me, MembershipParams, RotatedKey, UserEnvelope, UserList, UserParams } from "./model.ts";
import type { UserNeeds } from "./service.ts";
import {
  addDeveloperToTeam,
  createUser,
  describeMe,
  getDeveloper,
  listDevelopers,
  removeDeveloper,
  removeDeveloperFromTeam,
  removeSelf,
  renameDeveloper,
  rotateDeveloperKey,
} from "./service.ts";

/** The users controller. */
export function usersRoutes(deps: AuthNeeds & UserNeeds) {
  return new Elysia({ name: "users", detail: { tags: ["Users"] } })
    .use(authPlugin(deps))
    .get("/api/users/me", ({ caller }) => describeMe(deps, developerId(caller)), {
      auth: ["developer"],
      response: Me,
      detail: { summary: "Current developer", description: "The developer behind the token, with their API key and teams." },
    })
    .patch(
      "/api/users/me",
      async ({ caller, body }) => {
        await renameDeveloper(deps, developerId(caller), body.name ?? undefined);
        return describeMe(deps, developerId(caller));
      },
      { auth: ["developer"], body: EditUserBody, response: Me, detail: { summary: "Change my name" } },
    )
    .delete(
      "/api/users/me",
      async ({ caller }) => {
        await removeSelf(deps, developerId(caller));
        return noContent();
      },
      { auth: ["developer"], detail: { summary: "Delete my account", description: "403 permission_denied unless the server sets HOOT_ALLOW_SELF_DELETE." } },
    )
    .post("/api/users/me/api-key", async ({ caller }) => ({ api_key: (await rotateDeveloperKey(deps, developerId(caller))).apiKey }), {
      auth: ["developer"],
      response: RotatedKey,
      detail: { summary: "Rotate my developer key", description: "The old key and every token it minted stop working at once." },
    })
    .get("/api/users", async () => ({ users: await listDevelopers(deps) }), {
      access: ["operator"],
      response: UserList,
      detail: { summary: "List developers (operator)" },
    })
    .post(
      "/api/users",
      async ({ caller, body, set }) => {
        const made = await createUser(deps, caller, body);
        set.status = made.status;
        return made.body;
      },
      {
        access: ["developer", "operator"],
        body: CreateUserBody,
        response: { 201: CreatedUser, 202: InvitedDeveloper },
        detail: {
          summary: "Create a service account, invite a developer, or (operator) create a developer",
          description:
            "user_type playerLogin / playerCreate (developer token): a service account of the caller's team, its api_key shown this once. " +
            "user_type user with a developer token: 202 {email, invited: true}, the e-mail is invited to the caller's team (the same answer whether it " +
            "has an account or not; " +
            "they join by signing in with single sign-on if new, or by accepting in the console); no account and no key is made. " +
            "With the operator token: 201, a new developer in no team, their api_key shown this once (409 email_taken when the e-mail is known).",
        },
      },
    )
    .get("/api/users/:user_pk", async ({ params }) => ({ user: await getDeveloper(deps, Number(params.user_pk)) }), {
      ...operatorOnly(UserParams, "Get a developer"),
      response: UserEnvelope,
    })
    .patch("/api/users/:user_pk", async ({ params, body }) => ({ user: await renameDeveloper(deps, Number(params.user_pk), body.name ?? undefined) }), {
      ...operatorOnly(UserParams, "Rename a developer"),
      body: EditUserBody,
      response: UserEnvelope,
    })
    .delete("/api/users/:user_pk", async ({ params }) => (await removeDeveloper(deps, Number(params.user_pk)), noContent()), {
      ...operatorOnly(UserParams, "Delete a developer", "Their key and tokens stop working at once."),
    })
    .post(
      "/api/users/:user_pk/teams/:team_pk",
      async ({ params }) => ({ user: await addDeveloperToTeam(deps, Number(params.user_pk), Number(params.team_pk)) }),
      {
        ...operatorOnly(MembershipParams, "Add a developer to a team"),
        response: UserEnvelope,
      },
    )
    .delete(
      "/api/users/:user_pk/teams/:team_pk",
      async ({ params }) => (await removeDeveloperFromTeam(deps, Number(params.user_pk), Number(params.team_pk)), noContent()),
      {
        ...operatorOnly(MembershipParams, "Remove a developer from a team", "Their tokens for that team stop working at once."),
      },
    );
}

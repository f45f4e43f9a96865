/** The profile: the developer key, the team's invitations, and the developer's own invitations and teams. */
import { Elysia } from "elysia";
import { noContent } from "../../http/no-content.ts";
import { InviteBody, PkParams } from "../model.ts";
import * as services from "../services.ts";
import { keepAfterRotation, switchTeam } from "../sessions.ts";
import { type ConsoleContext, consoleSessionPlugin, describeSession } from "./common.ts";

/** The profile routes (key, invitations, teams). */
export function consoleProfileRoutes(context: ConsoleContext) {
  const { deps } = context;
  return (
    new Elysia({ name: "console-profile", detail: { hide: true } })
      .use(consoleSessionPlugin(deps))
      .get("/console/api/key", async ({ session }) => ({ api_key: await services.developerKey(deps, session.userId) }), { consoleSession: "read" })
      .post(
        "/console/api/key/rotate",
        async ({ session }) => {
          const { apiKey, keyVersion } = await services.rotateDeveloperKey(deps, session.userId);
          await keepAfterRotation(deps, session, keyVersion);
          deps.logger.info({ event: "console_key_rotated", userId: session.userId }, "developer key rotated from the console");
          return { api_key: apiKey };
        },
        { consoleSession: "write" },
      )
      .post(
        "/console/api/invitations",
        async ({ session, body, set }) => {
          const invitation = await services.inviteFromConsole(deps, session.teamId, body.email, session.userId);
          set.status = 201;
          return invitation;
        },
        { consoleSession: "write", body: InviteBody },
      )
      .get("/console/api/invitations", async ({ session }) => ({ invitations: await services.teamInvitations(deps, session.teamId) }), {
        consoleSession: "read",
      })
      .delete(
        "/console/api/invitations/:pk",
        async ({ session, params }) => {
          await services.withdrawInvitation(deps, session.teamId, Number(params.pk));
          return noContent();
        },
        { consoleSession: "write", params: PkParams },
      )

      // --- the signed-in developer's own invitations and teams: joining takes their explicit acceptance ---
      .get("/console/api/my-invitations", async ({ session }) => ({ invitations: await services.invitationsOf(deps, session.userId) }), {
        consoleSession: "read",
      })
      .post(
        "/console/api/my-invitations/:pk/accept",
        async ({ session, params }) => {
          const team = await services.acceptInvitation(deps, session.userId, Number(params.pk));
          deps.logger.info({ event: "invitation_accepted", userId: session.userId, teamId: team.pk }, "developer joined a team by invitation");
          return describeSession(deps, session);
        },
        { consoleSession: "write", params: PkParams },
      )
      .post(
        "/console/api/my-invitations/:pk/decline",
        async ({ session, params }) => {
          await services.declineInvitation(deps, session.userId, Number(params.pk));
          return noContent();
        },
        { consoleSession: "write", params: PkParams },
      )
      .post(
        "/console/api/teams/:pk/leave",
        async ({ session, params }) => {
          const teamId = Number(params.pk);
          await services.leaveOwnTeam(deps, session.userId, teamId);
          deps.logger.info({ event: "team_left", userId: session.userId, teamId }, "developer left a team");
          // The session worked in the team it left: it moves to the developer's first remaining team.
          const current = session.teamId === teamId ? await switchTeam(deps, session, (await services.teamsOf(deps, session.userId))[0]!.pk) : session;
          return describeSession(deps, current);
        },
        { consoleSession: "write", params: PkParams },
      )
  );
}

/** The console session: sign-in options, signing in with a key, the session, switching team. */
import { Elysia } from "elysia";
import { CrossSiteRefused, NotFound, SignInRefused } from "../../errors.ts";
import { noContent } from "../../http/no-content.ts";
import { KeySignInBody, SwitchTeamBody } from "../model.ts";
import { SECURITY_HEADERS } from "../page.ts";
import * as services from "../services.ts";
import { clearSessionCookie, createSession, endPresentedSession, endSession, fromOwnOrigin, sessionCookie, switchTeam } from "../sessions.ts";
import { type ConsoleContext, consoleSessionPlugin, describeSession } from "./common.ts";

/** The session routes. */
export function consoleSessionRoutes(context: ConsoleContext) {
  const { deps, oidc, address } = context;
  return new Elysia({ name: "console-session", detail: { hide: true } })
    .use(consoleSessionPlugin(deps))
    .get("/console/api/sign-in-options", ({ set }) => {
      Object.assign(set.headers, SECURITY_HEADERS, { "cache-control": "no-store" });
      return { single_sign_on: oidc !== null, provider_name: oidc ? deps.config.oidcProviderName : null };
    })
    .post(
      "/console/api/session",
      async ({ body, request, server, set }) => {
        Object.assign(set.headers, SECURITY_HEADERS, { "cache-control": "no-store" });
        if (oidc) {
          throw new SignInRefused("sso_required", `This server uses single sign-on: sign in with ${deps.config.oidcProviderName} instead of an API key.`);
        }
        if (!fromOwnOrigin(deps, request)) throw new CrossSiteRefused();
        const who = await services.signInWithKey(deps, body.api_key, body.team_name || undefined, address(request, server));
        await endPresentedSession(deps, request);
        const { token, session } = await createSession(deps, { ...who, method: "api_key" });
        deps.logger.info({ event: "console_sign_in", method: "api_key", userId: who.userId }, "console sign-in");
        set.headers["set-cookie"] = sessionCookie(deps, request, token);
        return describeSession(deps, session);
      },
      { body: KeySignInBody },
    )
    .get("/console/api/session", ({ session }) => describeSession(deps, session), { consoleSession: "read" })
    .delete(
      "/console/api/session",
      async ({ session, request, set }) => {
        await endSession(deps, session);
        set.headers["set-cookie"] = clearSessionCookie(deps, request);
        return noContent();
      },
      { consoleSession: "write" },
    )
    .put(
      "/console/api/session/team",
      async ({ session, body }) => {
        if (!(await services.isMember(deps, session.userId, body.team_pk))) throw new NotFound("team");
        return describeSession(deps, await switchTeam(deps, session, body.team_pk));
      },
      { consoleSession: "write", body: SwitchTeamBody },
    );
}

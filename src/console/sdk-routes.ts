/**
 * The hosted engine's Python SDK signs a developer in from a script with `login_with_google`:
 *   POST /api/auth/login/google/app        {redirect_uri}  -> {authorization_url}
 *   POST /api/auth/login/google/authorize  {code, state}   -> a developer access token, like POST /api/auth/login
 * Served with whatever OpenID Connect issuer is configured (the paths keep the SDK's names), with the same
 * checks as the console's sign-in; without an issuer both answer 404 `sso_not_configured`.
 */
import { Elysia } from "elysia";
import type { FailureLimiter } from "../auth/rate-limit.ts";
import { isLoopbackHost } from "../config.ts";
import { AppError, InvalidRequest, SsoNotConfigured, Unauthorized } from "../errors.ts";
import { clientAddress } from "../http/client-address.ts";
import { SdkFinishBody, SdkStartBody } from "./model.ts";
import { type OidcClient, SignInFailed } from "./oidc.ts";
import type { ConsoleNeeds } from "./services.ts";
import * as services from "./services.ts";
import { admit, beginSignIn, finishSignIn, UnknownSignIn } from "./sign-in.ts";

/** The Python SDK's `login_with_google` routes, served with whatever issuer is configured. */
export function sdkSignInRoutes(deps: ConsoleNeeds, oidc: OidcClient | null, starts: FailureLimiter) {
  return new Elysia({ name: "console-sdk-sign-in", detail: { tags: ["Authentication"] } })
    .post(
      "/api/auth/login/google/app",
      async ({ body, request, server }) => {
        if (!oidc) throw new SsoNotConfigured();
        const redirectUri = loopbackRedirect(body.redirect_uri);
        const { url } = await beginSignIn(deps, oidc, "sdk", redirectUri, {
          starts,
          client: clientAddress(request, server, deps.config.trustProxy, deps.logger),
        });
        return { authorization_url: url };
      },
      {
        body: SdkStartBody,
        detail: {
          summary: "Start single sign-on from a script",
          description:
            "The Python SDK's login_with_google, step 1: give the loopback URL your script listens on; open authorization_url in a browser. Works with " +
            "any configured OpenID Connect issuer (the path keeps the SDK's name). 404 sso_not_configured without one; 429 when your address started " +
            "too many sign-ins (HOOT_SIGN_IN_STARTS_PER_ADDRESS in ten minutes) or too many are in flight.",
        },
      },
    )
    .post(
      "/api/auth/login/google/authorize",
      async ({ body, request, server }) => {
        if (!oidc) throw new SsoNotConfigured();
        let admitted;
        try {
          const identity = await finishSignIn(deps, oidc, "sdk", new URLSearchParams({ code: body.code, state: body.state }), null);
          admitted = await admit(deps, identity);
        } catch (error) {
          const reason =
            error instanceof UnknownSignIn ? "unknown_state" : error instanceof SignInFailed ? error.reason : error instanceof AppError ? error.code : null;
          if (reason === null) throw error;
          deps.metrics.authFailures.inc({ reason: `sso_${reason}` });
          deps.logger.warn({ event: "sso_login_failed", reason }, "single sign-on login failed");
          if (error instanceof UnknownSignIn || error instanceof SignInFailed) throw new Unauthorized();
          throw error;
        }
        let teamId = admitted.teamId;
        if (body.team_name !== undefined) {
          const team = (await services.teamsOf(deps, admitted.userId)).find((t) => t.name === body.team_name);
          if (!team) throw new Unauthorized();
          teamId = team.pk;
        }
        deps.logger.info({ event: "sso_login", userId: admitted.userId }, "single sign-on login");
        return services.developerToken(deps, admitted.userId, teamId, clientAddress(request, server, deps.config.trustProxy));
      },
      {
        body: SdkFinishBody,
        detail: {
          summary: "Finish single sign-on from a script",
          description:
            "Step 2: the code and state your loopback listener received. Answers a developer access token like POST /api/auth/login (for the " +
            "developer's first team, or team_name).",
        },
      },
    );
}

/** The SDK's redirect URI, normalised; only a loopback http(s) URL (the SDK's own listener) is accepted. */
function loopbackRedirect(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    url = new URL("invalid:");
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !isLoopbackHost(url.hostname) || url.hash || url.username || url.password) {
    throw new InvalidRequest("redirect_uri must be a loopback URL the client listens on, such as http://127.0.0.1:53121.", "invalid_redirect_uri");
  }
  // The same string goes to the authorization request and the token request, so normalise it once here.
  return url.href;
}

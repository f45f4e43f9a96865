/**
 * Routes of the developer console, served at /console by the same server (one ordinary route for the page:
 * Bun's HTML imports do not work behind hoot's global request hook):
 *   GET  /console                     the page (one self-contained HTML document)
 *   GET  /console/auth/login          starts single sign-on (303 to the identity provider)
 *   GET  /console/auth/callback       finishes it: a session cookie and 303 to /console, or a page saying why not
 *   /console/api/…                    the page's JSON API (session cookie; CSRF checks on every change)
 *   POST /api/auth/login/google/app, /authorize   the Python SDK's `login_with_google`, with whatever issuer is set
 * Routes are one file per section in routes/ (common.ts: the session macro and credential gate they share).
 * Handlers read input, call the console's services and shape output; the rules live in sessions.ts,
 * sign-in.ts and, for everything about developers, teams, keys and players, the services behind services.ts.
 */
import { Elysia } from "elysia";
import { clientAddress } from "../http/client-address.ts";
import { createOidcClient } from "./oidc.ts";
import type { ConsoleContext } from "./routes/common.ts";
import { consoleKeyRoutes } from "./routes/keys.ts";
import { consolePlayerRoutes } from "./routes/players.ts";
import { consolePrivacyRoutes } from "./routes/privacy.ts";
import { consoleProfileRoutes } from "./routes/profile.ts";
import { consoleSafetyRoutes } from "./routes/safety.ts";
import { consoleSessionRoutes } from "./routes/session.ts";
import { consoleSignInRoutes } from "./routes/sign-in.ts";
import { sdkSignInRoutes } from "./sdk-routes.ts";
import type { ConsoleNeeds } from "./services.ts";
import { signInStartLimiter } from "./sign-in.ts";

export { consoleCredentialGate } from "./routes/common.ts";

const DEFAULT_PROMPT =
  "You are Ollie, a wise and friendly owl who lives in a big oak tree. You talk with a young child: use short, warm sentences, ask one question at a time, and keep everything kind and safe.";

/** The console (page, sign-in, API: one file per section in routes/) and the SDK's single-sign-on routes. */
export function consoleRoutes(deps: ConsoleNeeds) {
  const oidc = createOidcClient(deps.config);
  // One budget per address for both flows: starting sign-ins needs no credential.
  const starts = signInStartLimiter(deps.config.signInStartsPerAddress);
  const context: ConsoleContext = {
    deps,
    oidc,
    starts,
    address: (request, server) => clientAddress(request, server, deps.config.trustProxy, deps.logger),
  };
  return new Elysia({ name: "console" })
    .use(consoleSignInRoutes(context))
    .use(consoleSessionRoutes(context))
    .use(consoleProfileRoutes(context))
    .use(consoleKeyRoutes(context))
    .use(consolePlayerRoutes(context))
    .use(consolePrivacyRoutes(context))
    .use(consoleSafetyRoutes(context, DEFAULT_PROMPT))
    .use(sdkSignInRoutes(deps, oidc, starts));
}

/**
 * Routes of the developer console, served at /console by the same server (one ordinary route for the page:
 * Bun's HTML imports do not work behind hoot's global request hook):
 *   GET  /console                     the page (one self-contained HTML document)
 *   GET  /console/auth/login          starts single sign-on (303 to the identity provider)
 *   GET  /console/auth/callback       finishes it: a session cookie and 303 to /console, or a page saying why not
 *   /console/api/…                    the page's JSON API (session cookie; CSRF checks on every change)
 *   POST /api/auth/login/google/app, /authorize   the Python SDK's `login_with_google`, with whatever issuer is set
 * Handlers read input, call the console's services and shape output; the rules live in sessions.ts,
 * sign-in.ts and, for everything about developers, teams, keys and players, the services behind services.ts.
 */
import { Elysia } from "elysia";
import type { ConsoleNeeds } from "./services.ts";
import { noContent } from "../http/no-content.ts";
import { CrossSiteRefused, IdentityProviderFailed, InvalidRequest, NotFound, SignInRefused, TooManyRequests, Unauthorized } from "../errors.ts";
import type { FailureLimiter } from "../auth/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import {
  CreateKeyBody,
  CreateTestPlayerBody,
  InviteBody,
  KeySignInBody,
  PkParams,
  PlayersQuery,
  PolicyBody,
  PolicyNameParams,
  SwitchTeamBody,
} from "./model.ts";
import { createOidcClient, SignInFailed, type OidcClient } from "./oidc.ts";
import { consolePage, messagePage, SECURITY_HEADERS } from "./page.ts";
import * as services from "./services.ts";
import {
  clearSessionCookie,
  consoleOrigin,
  cookieName,
  createSession,
  csrfMatches,
  endPresentedSession,
  endSession,
  fromOwnOrigin,
  isSecure,
  keepAfterRotation,
  LOGIN_COOKIE,
  randomToken,
  readCookie,
  resolveSession,
  serializeCookie,
  sessionCookie,
  sessionToken,
  switchTeam,
  type ConsoleSession,
} from "./sessions.ts";
import { admit, beginSignIn, finishSignIn, signInStartLimiter, UnknownSignIn } from "./sign-in.ts";
import { sdkSignInRoutes } from "./sdk-routes.ts";

const NOT_SIGNED_IN = "You are not signed in to the console, or your session has ended; sign in again.";
const DEFAULT_PROMPT =
  "You are Ollie, a wise and friendly owl who lives in a big oak tree. You talk with a young child: use short, warm sentences, ask one question at a time, and keep everything kind and safe.";

// The session the credential gate found before the body or query was validated, so the macro need not look again.
const identifiedEarly = new WeakMap<Request, ConsoleSession>();

/** A console API request's session: from the console's own page for "write", a live session, the CSRF token; else 401/403. */
async function consoleRequestSession(deps: ConsoleNeeds, request: Request, mode: "read" | "write"): Promise<ConsoleSession> {
  if (mode === "write" && !fromOwnOrigin(deps, request)) throw new CrossSiteRefused();
  const session = await resolveSession(deps, sessionToken(deps, request));
  if (!session) throw new Unauthorized(NOT_SIGNED_IN);
  if (mode === "write" && !csrfMatches(session, request.headers.get("x-csrf-token"))) throw new CrossSiteRefused();
  return session;
}

interface RouteLike {
  method: string;
  path: string;
  hooks?: { detail?: unknown };
}

/**
 * The console's half of the credential gate (see auth's `credentialGate`): a console API route answers 401
 * (or 403) before its body or query is validated. Routes are found by the `consoleSession` security their
 * macro gives them, whose scope says "read" or "write".
 */
export function consoleCredentialGate(deps: ConsoleNeeds) {
  const routes = new Map<string, "read" | "write">();
  return {
    learn(list: readonly RouteLike[]): void {
      for (const route of list) {
        const security = (route.hooks?.detail as { security?: unknown } | undefined)?.security;
        if (!Array.isArray(security)) continue;
        const scopes = (security.find((entry) => typeof entry === "object" && entry !== null && "consoleSession" in entry) as { consoleSession?: unknown } | undefined)?.consoleSession;
        if (Array.isArray(scopes)) routes.set(`${route.method} ${route.path}`, scopes.includes("write") ? "write" : "read");
      }
    },
    async check(request: Request, route: string): Promise<void> {
      const mode = routes.get(`${request.method} ${route}`);
      if (mode === undefined || identifiedEarly.has(request)) return;
      identifiedEarly.set(request, await consoleRequestSession(deps, request, mode));
    },
  };
}

/** The console (page, sign-in, API) and the SDK's single-sign-on routes. */
export function consoleRoutes(deps: ConsoleNeeds) {
  const oidc = createOidcClient(deps.config);
  // One budget per address for both flows: starting sign-ins needs no credential.
  const starts = signInStartLimiter(deps.config.signInStartsPerAddress);
  return new Elysia({ name: "console" }).use(consolePlugin(deps, oidc, starts)).use(sdkSignInRoutes(deps, oidc, starts));
}

function consolePlugin(deps: ConsoleNeeds, oidc: OidcClient | null, starts: FailureLimiter) {
  const address = (request: Request, server: Parameters<typeof clientAddress>[1]) => clientAddress(request, server, deps.config.trustProxy, deps.logger);

  return new Elysia({ name: "console-app", detail: { hide: true } })
    .macro({
      /** "read": a live session. "write": also from the console's own page (origin and CSRF token). */
      consoleSession: (mode: "read" | "write") => ({
        detail: { security: [{ consoleSession: [mode] }] as Record<string, string[]>[] },
        async resolve({ request, set }) {
          Object.assign(set.headers, SECURITY_HEADERS, { "cache-control": "no-store" });
          const session = identifiedEarly.get(request) ?? (await consoleRequestSession(deps, request, mode));
          return { session };
        },
      }),
    })
    .get("/console", () => consolePage())
    .get("/console/", () => consolePage())

    // --- single sign-on in the browser ---
    .get("/console/auth/login", async ({ request, server }) => {
      if (!oidc) return redirect("/console");
      try {
        const redirectUri = `${consoleOrigin(deps, request)}/console/auth/callback`;
        const { url, browser } = await beginSignIn(deps, oidc, "console", redirectUri, { starts, client: address(request, server) });
        const secure = isSecure(deps, request);
        const headers = redirectHeaders(url);
        headers.append("set-cookie", serializeCookie(cookieName(LOGIN_COOKIE, secure), browser!, secure, 600));
        return new Response(null, { status: 303, headers });
      } catch (error) {
        if (error instanceof IdentityProviderFailed) return messagePage(502, "The identity provider cannot be reached", error.message, error.code);
        if (error instanceof TooManyRequests) return messagePage(429, "Too many sign-ins", error.message, error.code, new Headers(error.headers));
        throw error;
      }
    })
    .get("/console/auth/callback", async ({ request }) => {
      if (!oidc) return redirect("/console");
      const secure = isSecure(deps, request);
      const loginCookie = cookieName(LOGIN_COOKIE, secure);
      // The binding cookie is single use whatever happens next.
      const headers = new Headers({ "set-cookie": serializeCookie(loginCookie, "", secure, 0) });
      try {
        const identity = await finishSignIn(deps, oidc, "console", new URL(request.url).searchParams, readCookie(request, loginCookie));
        const admitted = await admit(deps, identity);
        await endPresentedSession(deps, request);
        const { token } = await createSession(deps, { ...admitted, method: "oidc" });
        deps.logger.info({ event: "console_sign_in", method: "oidc", userId: admitted.userId }, "console sign-in");
        const out = redirectHeaders("/console#/profile");
        out.append("set-cookie", serializeCookie(loginCookie, "", secure, 0));
        out.append("set-cookie", sessionCookie(deps, request, token));
        return new Response(null, { status: 303, headers: out });
      } catch (error) {
        const page = signInFailurePage(error, headers);
        if (!page) throw error;
        deps.metrics.authFailures.inc({ reason: `console_${page.code}` });
        deps.logger.warn({ event: "console_sign_in_refused", reason: page.code }, "console sign-in refused");
        return page.response;
      }
    })

    // --- session ---
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
    )

    // --- profile: the developer key and invitations ---
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
    .get("/console/api/invitations", async ({ session }) => ({ invitations: await services.teamInvitations(deps, session.teamId) }), { consoleSession: "read" })
    .delete(
      "/console/api/invitations/:pk",
      async ({ session, params }) => {
        await services.withdrawInvitation(deps, session.teamId, Number(params.pk));
        return noContent();
      },
      { consoleSession: "write", params: PkParams },
    )

    // --- the signed-in developer's own invitations and teams: joining takes their explicit acceptance ---
    .get("/console/api/my-invitations", async ({ session }) => ({ invitations: await services.invitationsOf(deps, session.userId) }), { consoleSession: "read" })
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

    // --- authentication: service-account keys ---
    .post(
      "/console/api/service-accounts",
      ({ session, body, set }) => {
        set.status = 201;
        return services.createServiceAccount(deps, session.teamId, body.name.trim(), body.player_create === true);
      },
      { consoleSession: "write", body: CreateKeyBody },
    )
    .get("/console/api/service-accounts", async ({ session }) => ({ service_accounts: await services.listServiceAccounts(deps, session.teamId) }), { consoleSession: "read" })
    .delete(
      "/console/api/service-accounts/:pk",
      async ({ session, params }) => {
        await services.deleteServiceAccount(deps, session.teamId, Number(params.pk));
        return noContent();
      },
      { consoleSession: "write", params: PkParams },
    )

    // --- players ---
    .post(
      "/console/api/players",
      ({ session, body, set }) => {
        set.status = 201;
        const externalId = body.external_id?.trim() || `test-${randomToken().slice(0, 8)}`;
        return services.players(deps).create(session.teamId, externalId);
      },
      { consoleSession: "write", body: CreateTestPlayerBody },
    )
    .get(
      "/console/api/players",
      async ({ session, query }) => {
        const service = services.players(deps);
        const page = await service.list(session.teamId, query.after || undefined, query.limit ?? 20);
        // The API's list leaves external ids out (spec); the console shows them, read through the same service.
        return { players: await Promise.all(page.players.map((p) => service.get(session.teamId, p.pk))), next: page.next };
      },
      { consoleSession: "read", query: PlayersQuery },
    )
    .post("/console/api/players/:pk/reset-federated-id", ({ session, params }) => services.players(deps).resetFederatedId(session.teamId, Number(params.pk)), {
      consoleSession: "write",
      params: PkParams,
    })
    .delete(
      "/console/api/players/:pk",
      async ({ session, params }) => {
        await services.players(deps).remove(session.teamId, Number(params.pk));
        return noContent();
      },
      { consoleSession: "write", params: PkParams },
    )
    .post(
      "/console/api/players/:pk/token",
      ({ session, params, request, server }) => services.playerToken(deps, session.teamId, Number(params.pk), address(request, server)),
      { consoleSession: "write", params: PkParams },
    )

    // --- playground and safety ---
    .get(
      "/console/api/playground",
      async ({ session }) => ({
        voices: services.voices(deps),
        policies: (await services.policies(deps, session.teamId)).map((p) => p.name),
        default_prompt: DEFAULT_PROMPT,
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

// --- helpers ---

async function describeSession(deps: ConsoleNeeds, session: ConsoleSession) {
  const profile = await services.developerProfile(deps, session.userId);
  const team = profile.teams.find((t) => t.pk === session.teamId);
  if (!team) throw new Unauthorized(NOT_SIGNED_IN);
  return {
    user: { pk: profile.pk, name: profile.name, email: profile.email },
    team,
    teams: profile.teams,
    csrf_token: session.csrfToken,
    method: session.method,
  };
}

function redirectHeaders(location: string): Headers {
  return new Headers({ ...SECURITY_HEADERS, location, "cache-control": "no-store" });
}

function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: redirectHeaders(location) });
}

/** The page for a sign-in that could not finish, or null for an unexpected error. */
function signInFailurePage(error: unknown, headers: Headers): { code: string; response: Response } | null {
  if (error instanceof UnknownSignIn) {
    return { code: "unknown_state", response: messagePage(400, "This sign-in cannot be finished", `${error.message} Start again from the console.`, "unknown_state", headers) };
  }
  if (error instanceof SignInFailed) {
    return { code: error.reason, response: messagePage(error.reason === "provider_refused" ? 403 : 502, "Sign-in did not finish", error.message, error.reason, headers) };
  }
  if (error instanceof SignInRefused) {
    return { code: error.code, response: messagePage(403, "You cannot sign in to this console", error.message, error.code, headers) };
  }
  if (error instanceof IdentityProviderFailed) {
    return { code: error.code, response: messagePage(502, "The identity provider cannot be reached", error.message, error.code, headers) };
  }
  return null;
}

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
import type { Deps } from "../deps.ts";
import { Conflict, CrossSiteRefused, IdentityProviderFailed, InvalidRequest, NotFound, SignInRefused, Unauthorized } from "../errors.ts";
import { clientAddress } from "../http/client-address.ts";
import {
  CreateKeyBody,
  CreateTestPlayerBody,
  InviteBody,
  KeySignInBody,
  PkParams,
  PlayersQuery,
  PolicyBody,
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
import { admit, beginSignIn, finishSignIn, UnknownSignIn } from "./sign-in.ts";
import { sdkSignInRoutes } from "./sdk-routes.ts";
import { forward, itemsOf, passOn, section } from "./safety.ts";

const NOT_SIGNED_IN = "You are not signed in to the console, or your session has ended; sign in again.";
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DEFAULT_PROMPT =
  "You are Ollie, a wise and friendly owl who lives in a big oak tree. You talk with a young child: use short, warm sentences, ask one question at a time, and keep everything kind and safe.";

/** The console (page, sign-in, API) and the SDK's single-sign-on routes. */
export function consoleRoutes(deps: Deps) {
  const oidc = createOidcClient(deps.config);
  return new Elysia({ name: "console" }).use(consolePlugin(deps, oidc)).use(sdkSignInRoutes(deps, oidc));
}

function consolePlugin(deps: Deps, oidc: OidcClient | null) {
  const address = (request: Request, server: Parameters<typeof clientAddress>[1]) => clientAddress(request, server, deps.config.trustProxy);

  return new Elysia({ name: "console-app", detail: { hide: true } })
    .macro({
      /** "read": a live session. "write": also from the console's own page (origin and CSRF token). */
      consoleSession: (mode: "read" | "write") => ({
        async resolve({ request, set }) {
          Object.assign(set.headers, SECURITY_HEADERS, { "cache-control": "no-store" });
          if (mode === "write" && !fromOwnOrigin(deps, request)) throw new CrossSiteRefused();
          const session = await resolveSession(deps, sessionToken(deps, request));
          if (!session) throw new Unauthorized(NOT_SIGNED_IN);
          if (mode === "write" && !csrfMatches(session, request.headers.get("x-csrf-token"))) throw new CrossSiteRefused();
          return { session };
        },
      }),
    })
    .get("/console", () => consolePage())
    .get("/console/", () => consolePage())

    // --- single sign-on in the browser ---
    .get("/console/auth/login", async ({ request }) => {
      if (!oidc) return redirect("/console");
      try {
        const redirectUri = `${consoleOrigin(deps, request)}/console/auth/callback`;
        const { url, browser } = await beginSignIn(deps, oidc, "console", redirectUri);
        const secure = isSecure(deps, request);
        const headers = redirectHeaders(url);
        headers.append("set-cookie", serializeCookie(cookieName(LOGIN_COOKIE, secure), browser!, secure, 600));
        return new Response(null, { status: 303, headers });
      } catch (error) {
        if (error instanceof IdentityProviderFailed) return messagePage(502, "The identity provider cannot be reached", error.message, error.code);
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
        set.status = 204;
        return null;
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
        const email = body.email.trim().toLowerCase();
        if (!EMAIL.test(email)) throw new InvalidRequest(`"${body.email}" is not an e-mail address.`);
        const existing = await services.findDeveloperByEmail(deps, email);
        if (existing && (await services.isMember(deps, existing.id, session.teamId))) throw new Conflict(`${email} is already in this team.`, "already_member");
        const row = await deps.store.console.insertInvitation({ teamId: session.teamId, email, invitedBy: session.userId });
        if (!row) throw new Conflict(`${email} is already invited to this team.`, "already_invited");
        set.status = 201;
        return showInvitation(row);
      },
      { consoleSession: "write", body: InviteBody },
    )
    .get("/console/api/invitations", async ({ session }) => ({ invitations: (await deps.store.console.listInvitations(session.teamId)).map(showInvitation) }), { consoleSession: "read" })
    .delete(
      "/console/api/invitations/:pk",
      async ({ session, params, set }) => {
        if (!(await deps.store.console.deleteInvitation(session.teamId, Number(params.pk)))) throw new NotFound("invitation");
        set.status = 204;
        return null;
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
      async ({ session, params, set }) => {
        await services.deleteServiceAccount(deps, session.teamId, Number(params.pk));
        set.status = 204;
        return null;
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
      async ({ session, params, set }) => {
        await services.players(deps).remove(session.teamId, Number(params.pk));
        set.status = 204;
        return null;
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
      async ({ session, request, server }) => {
        const listed = await forward(deps, session, request, server, "GET", services.SAFETY_ROUTES.policies);
        const names = listed.available && listed.status === 200 ? itemsOf(listed.body, "policies").map((p: Record<string, unknown>) => p.name).filter((n): n is string => typeof n === "string") : [];
        return { voices: services.voices(deps), policies: names.length > 0 ? names : services.builtInPolicies(), default_prompt: DEFAULT_PROMPT };
      },
      { consoleSession: "read" },
    )
    .get(
      "/console/api/safety",
      async ({ session, request, server }) => {
        const [policies, teamPolicies, incidents] = await Promise.all([
          forward(deps, session, request, server, "GET", services.SAFETY_ROUTES.policies),
          forward(deps, session, request, server, "GET", services.SAFETY_ROUTES.teamPolicies),
          forward(deps, session, request, server, "GET", services.SAFETY_ROUTES.incidents),
        ]);
        return {
          builtin: services.builtInPolicies(),
          policies: section(policies, "policies"),
          team_policies: section(teamPolicies, "policies"),
          incidents: section(incidents, "incidents"),
        };
      },
      { consoleSession: "read" },
    )
    .post(
      "/console/api/safety/policies",
      async ({ session, request, server, body, set }) => {
        const answer = await forward(deps, session, request, server, "POST", services.SAFETY_ROUTES.teamPolicies, body);
        return passOn(answer, set);
      },
      { consoleSession: "write", body: PolicyBody },
    )
    .put(
      "/console/api/safety/policies/:id",
      async ({ session, request, server, body, params, set }) => {
        if (!/^[A-Za-z0-9_.-]{1,100}$/.test(params.id)) throw new InvalidRequest("The policy id in the path is not valid.", "invalid_path");
        const answer = await forward(deps, session, request, server, "PUT", `${services.SAFETY_ROUTES.teamPolicies}/${params.id}`, body);
        return passOn(answer, set);
      },
      { consoleSession: "write", body: PolicyBody },
    );
}

// --- helpers ---

async function describeSession(deps: Deps, session: ConsoleSession) {
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

function showInvitation(row: { id: number; email: string; createdAt: number }) {
  return { pk: row.id, email: row.email, created_at: new Date(row.createdAt).toISOString() };
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

/**
 * What every section of the console's routes shares: the session a console API request carries (found once, by
 * the credential gate or by the `consoleSession` macro), the gate itself, and the small helpers of the handlers.
 */
import { Elysia } from "elysia";
import { type AuditContext, requestIdOf } from "../../audit/service.ts";
import type { FailureLimiter } from "../../auth/rate-limit.ts";
import { CrossSiteRefused, Unauthorized } from "../../errors.ts";
import type { clientAddress } from "../../http/client-address.ts";
import type { OidcClient } from "../oidc.ts";
import { SECURITY_HEADERS } from "../page.ts";
import type { ConsoleNeeds } from "../services.ts";
import * as services from "../services.ts";
import { type ConsoleSession, csrfMatches, fromOwnOrigin, resolveSession, sessionToken } from "../sessions.ts";

export const NOT_SIGNED_IN = "You are not signed in to the console, or your session has ended; sign in again.";

/** What each section's routes are built with. */
export interface ConsoleContext {
  deps: ConsoleNeeds;
  /** The single sign-on client, or null when the console signs in with API keys. */
  oidc: OidcClient | null;
  /** One budget per address for starting sign-ins (the console's and the SDK's). */
  starts: FailureLimiter;
  /** The caller's address, as every per-address limit sees it. */
  address(request: Request, server: Parameters<typeof clientAddress>[1]): string;
}

// The session the credential gate found before the body or query was validated, so the macro need not look again.
const identifiedEarly = new WeakMap<Request, ConsoleSession>();

/** A console API request's session: from the console's own page for "write", a live session, the CSRF token; else 401/403. */
export async function consoleRequestSession(deps: ConsoleNeeds, request: Request, mode: "read" | "write"): Promise<ConsoleSession> {
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
        const scopes = (
          security.find((entry) => typeof entry === "object" && entry !== null && "consoleSession" in entry) as { consoleSession?: unknown } | undefined
        )?.consoleSession;
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

/** Registers the `consoleSession` macro every console API route uses. */
export function consoleSessionPlugin(deps: ConsoleNeeds) {
  return new Elysia({ name: "hoot-console-session" }).macro({
    /** "read": a live session. "write": also from the console's own page (origin and CSRF token). */
    consoleSession: (mode: "read" | "write") => ({
      detail: { security: [{ consoleSession: [mode] }] as Record<string, string[]>[] },
      async resolve({ request, set }) {
        Object.assign(set.headers, SECURITY_HEADERS, { "cache-control": "no-store" });
        const session = identifiedEarly.get(request) ?? (await consoleRequestSession(deps, request, mode));
        return { session };
      },
    }),
  });
}

/** The session as the page sees it: who, which team, the CSRF token. */
export async function describeSession(deps: ConsoleNeeds, session: ConsoleSession) {
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

/** Who acts in an audited console request: the signed-in developer, as actor kind `console`. */
export function consoleAudit(session: ConsoleSession, set: { headers: Record<string, unknown> }): AuditContext {
  return { actor: { kind: "console", pk: session.userId }, requestId: requestIdOf(set) };
}

/** Headers of a 303 from the console. */
export function redirectHeaders(location: string): Headers {
  return new Headers({ ...SECURITY_HEADERS, location, "cache-control": "no-store" });
}

/** A 303 to `location`. */
export function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: redirectHeaders(location) });
}

/**
 * Console sessions. Data model: the browser holds an opaque random token (256 bits) in an HttpOnly,
 * SameSite=Lax cookie (`__Host-hoot_console`, Secure, when the console is served over https); the database
 * holds only its keyed hash, the developer, the team the console is working in, the developer's key version
 * at sign-in, and the idle and absolute deadlines.
 *
 * Rules this module keeps:
 * - a session is valid only while it is within both lifetimes, its developer's key version is unchanged (a
 *   rotated key ends every session but the one that rotated it) and the developer is still in its team;
 * - every failure returns null, whatever the cause, and an invalid row is deleted;
 * - a developer has at most HOOT_MAX_CONSOLE_SESSIONS_PER_DEVELOPER sessions: a new sign-in signs the oldest out;
 * - state-changing requests must carry the session's CSRF token (derived from the session token with a
 *   keyed hash, so it is never stored) and, when the browser says where it comes from, come from the
 *   console's own origin.
 */

import { safeEqual } from "../auth/secrets.ts";
import type { ConsoleNeeds } from "./services.ts";
import { developerKeyVersion, isMember } from "./services.ts";

export const SESSION_COOKIE = "hoot_console";
export const LOGIN_COOKIE = "hoot_console_login";
/** Activity is written at most this often, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60_000;

export interface ConsoleSession {
  id: number;
  userId: number;
  teamId: number;
  method: "oidc" | "api_key";
  csrfToken: string;
}

/** A new random token: 32 bytes, base64url. */
export function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/** Starts a session; returns the cookie value and the session. */
export async function createSession(
  deps: ConsoleNeeds,
  input: { userId: number; teamId: number; keyVersion: number; method: "oidc" | "api_key" },
): Promise<{ token: string; session: ConsoleSession }> {
  const now = Date.now();
  const { idleMs, maxMs } = lifetimes(deps);
  await deps.store.console.deleteStaleSessions(now, now - idleMs);
  const token = randomToken();
  const row = await deps.store.console.insertSession({ ...input, tokenHash: deps.secrets.lookupHash(token), lastSeenAt: now, expiresAt: now + maxMs });
  // Past HOOT_MAX_CONSOLE_SESSIONS_PER_DEVELOPER the oldest sessions are signed out, so sign-ins cannot pile up rows.
  await deps.store.console.keepNewestSessions(input.userId, deps.config.maxConsoleSessionsPerDeveloper);
  return { token, session: { id: row.id, userId: row.userId, teamId: row.teamId, method: row.method, csrfToken: csrfToken(deps, token) } };
}

/** The live session behind a cookie value, or null (and the row is deleted when it has ended). */
export async function resolveSession(deps: ConsoleNeeds, token: string | null): Promise<ConsoleSession | null> {
  if (!token || token.length > 100) return null;
  const row = await deps.store.console.findSessionByHash(deps.secrets.lookupHash(token));
  if (!row) return null;
  const now = Date.now();
  const { idleMs } = lifetimes(deps);
  const valid =
    row.expiresAt > now &&
    row.lastSeenAt + idleMs > now &&
    (await developerKeyVersion(deps, row.userId)) === row.keyVersion &&
    (await isMember(deps, row.userId, row.teamId));
  if (!valid) {
    await deps.store.console.deleteSession(row.id);
    return null;
  }
  if (now - row.lastSeenAt > TOUCH_EVERY_MS) await deps.store.console.touchSession(row.id, now);
  return { id: row.id, userId: row.userId, teamId: row.teamId, method: row.method, csrfToken: csrfToken(deps, token) };
}

/** Ends a session (sign-out). */
export function endSession(deps: ConsoleNeeds, session: ConsoleSession): Promise<void> {
  return deps.store.console.deleteSession(session.id);
}

/** Ends the session this request already carries, if any (a new sign-in replaces it rather than adding one). */
export async function endPresentedSession(deps: ConsoleNeeds, request: Request): Promise<void> {
  const token = sessionToken(deps, request);
  if (!token || token.length > 100) return;
  const row = await deps.store.console.findSessionByHash(deps.secrets.lookupHash(token));
  if (row) await deps.store.console.deleteSession(row.id);
}

/** Points a session at another team of its developer. */
export async function switchTeam(deps: ConsoleNeeds, session: ConsoleSession, teamId: number): Promise<ConsoleSession> {
  await deps.store.console.setSessionTeam(session.id, teamId);
  return { ...session, teamId };
}

/** After the developer rotated their key from this session: this session lives on, every other one ends. */
export async function keepAfterRotation(deps: ConsoleNeeds, session: ConsoleSession, keyVersion: number): Promise<void> {
  await deps.store.transaction(async (tx) => {
    await tx.console.setSessionKeyVersion(session.id, keyVersion);
    await tx.console.deleteOtherSessions(session.userId, session.id);
  });
}

/** Whether `presented` is the CSRF token of the session behind `token`. */
export function csrfMatches(session: ConsoleSession, presented: string | null): boolean {
  return presented !== null && safeEqual(presented, session.csrfToken);
}

function csrfToken(deps: ConsoleNeeds, token: string): string {
  // A different input from the stored hash, so the database alone cannot produce a valid CSRF token.
  return deps.secrets.lookupHash(`console-csrf:${token}`);
}

function lifetimes(deps: ConsoleNeeds): { idleMs: number; maxMs: number } {
  return { idleMs: deps.config.consoleSessionIdleMinutes * 60_000, maxMs: deps.config.consoleSessionMaxHours * 3_600_000 };
}

// --- cookies ---

/** Whether the console is served over https (then cookies are Secure and `__Host-` prefixed). */
export function isSecure(deps: ConsoleNeeds, request: Request): boolean {
  const origin = deps.config.publicUrl ?? new URL(request.url).origin;
  return origin.startsWith("https:");
}

/** The cookie's name as this request should see it. */
export function cookieName(base: string, secure: boolean): string {
  return secure ? `__Host-${base}` : base;
}

/** A Set-Cookie value; `maxAgeSeconds` 0 clears the cookie. */
export function serializeCookie(name: string, value: string, secure: boolean, maxAgeSeconds: number): string {
  // Path=/ and no Domain: required by the __Host- prefix, and the cookie never reaches another host.
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The session cookie of a signed-in browser. */
export function sessionCookie(deps: ConsoleNeeds, request: Request, token: string): string {
  const secure = isSecure(deps, request);
  return serializeCookie(cookieName(SESSION_COOKIE, secure), token, secure, deps.config.consoleSessionMaxHours * 3600);
}

/** A Set-Cookie value that removes the session cookie. */
export function clearSessionCookie(deps: ConsoleNeeds, request: Request): string {
  const secure = isSecure(deps, request);
  return serializeCookie(cookieName(SESSION_COOKIE, secure), "", secure, 0);
}

/** The session token this request carries, or null. */
export function sessionToken(deps: ConsoleNeeds, request: Request): string | null {
  return readCookie(request, cookieName(SESSION_COOKIE, isSecure(deps, request)));
}

/** The console's own origin: HOOT_PUBLIC_URL, else the origin the request was addressed to. */
export function consoleOrigin(deps: ConsoleNeeds, request: Request): string {
  return deps.config.publicUrl ?? new URL(request.url).origin;
}

/**
 * Whether a state-changing request comes from the console's own page as far as the browser tells: a present
 * `Origin` must be the console's origin and a present `Sec-Fetch-Site` must be `same-origin`. (Other ports of
 * the same host are "same site" for cookies, which is why the origin itself is compared.)
 */
export function fromOwnOrigin(deps: ConsoleNeeds, request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== consoleOrigin(deps, request)) return false;
  const site = request.headers.get("sec-fetch-site");
  return site === null || site === "same-origin";
}

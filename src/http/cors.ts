/**
 * CORS (PROTOCOL.md sections 1 and 5). Rules:
 *  - the player-facing endpoints (login, health) answer preflights from any origin and name any origin in
 *    `Access-Control-Allow-Origin`, because a web game embeds the login;
 *  - every other HTTP endpoint does so only for origins listed in HOOT_CORS_ORIGINS (`*` = any);
 *  - no cookies are used, so credentials mode stays off;
 *  - a listed-origins setting for the websocket (HOOT_WS_ORIGINS) refuses upgrades from other browser
 *    origins; a request with no `Origin` (a native app) is never refused.
 * An origin that is not allowed gets no CORS headers, so the browser blocks the answer; a refused preflight
 * says why in the usual error body.
 */

/** Paths any web origin may call: what a game's own web page needs. */
const PUBLIC_PATHS = new Set(["/api/auth/login", "/api/health"]);

export const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE";
/** The headers the SDKs send: axios's `authorization` and `content-type`, and the request id. */
export const ALLOWED_HEADERS = "authorization, content-type, x-request-id";
export const MAX_AGE_SECONDS = 600;

export interface CorsPolicy {
  /** Headers for an answer to `origin` at `path`, or null when that origin may not read it. */
  allow(origin: string, path: string): Record<string, string> | null;
  /** Extra headers for a successful preflight. */
  readonly preflightHeaders: Record<string, string>;
  /** False when a browser page of `origin` may not open the interact websocket. */
  websocketAllowed(origin: string | null): boolean;
}

/** The policy for the configured origin lists (exact origins, or "*" for any). */
export function createCorsPolicy(developerOrigins: readonly string[], websocketOrigins: readonly string[]): CorsPolicy {
  const developers = new Set(developerOrigins);
  const sockets = new Set(websocketOrigins);
  const anyDeveloper = developers.has("*");
  return {
    allow(origin, path) {
      const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
      if (!PUBLIC_PATHS.has(trimmed) && !anyDeveloper && !developers.has(origin)) return null;
      return {
        "access-control-allow-origin": origin,
        vary: "Origin",
        "access-control-expose-headers": "x-request-id, retry-after",
      };
    },
    preflightHeaders: {
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": String(MAX_AGE_SECONDS),
    },
    websocketAllowed(origin) {
      if (origin === null || sockets.size === 0 || sockets.has("*")) return true;
      return sockets.has(origin);
    },
  };
}

/** True for a CORS preflight: OPTIONS with an Origin and the method the browser wants to use. */
export function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS" && request.headers.has("origin") && request.headers.has("access-control-request-method");
}

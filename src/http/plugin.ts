/**
 * Cross-cutting HTTP behaviour, registered once in app.ts: request ids, CORS, the one request log line, body
 * size, media type, depth and schema checks, waiting for the database's write lock, and the mapping of every
 * error (ours, SQLite's busy errors, Elysia's parse/validation/not-found) to `{error, code}` with the right
 * status. Nothing here knows about features.
 */
import { Elysia, ValidationError } from "elysia";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { isBusyError, isConnectionError, isUniqueViolation, rootCause } from "../db/errors.ts";
import {
  AppError,
  Conflict,
  DatabaseBusy,
  InvalidRequest,
  NotFound,
  OriginNotAllowed,
  PayloadTooLarge,
  toHttpError,
  Unavailable,
  UnsupportedMediaType,
} from "../errors.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { BodyGuard } from "./body-guard.ts";
import { createCorsPolicy, isPreflight } from "./cors.ts";
import { parseJsonBody } from "./json-body.ts";
import { describeValidation } from "./validation.ts";

interface RequestInfo {
  id: string;
  start: number;
  /** CORS headers this answer carries (also on errors). */
  cors: Record<string, string> | null;
  /** Set when onError answered, since the after-response hook cannot see that response's status. */
  status?: number;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// Writes that only read the database: they need not wait for another process's write lock.
const READ_ONLY_WRITES = new Set(["POST /api/auth/login"]);

/**
 * Who-is-calling, checked before a body or query is validated (the auth module implements it), so a request
 * without a valid credential gets 401 and never a sentence about the fields the route takes.
 */
export interface CredentialGate {
  check(request: Request, route: string, server: { requestIP?(request: Request): unknown } | null): Promise<void>;
}

/** State shared with main.ts: flips to draining on SIGTERM so new requests get 503. */
export interface Lifecycle {
  draining: boolean;
}

/** What the request plumbing needs. */
export interface HttpNeeds {
  config: Pick<Config, "bodyLimit" | "corsOrigins" | "wsOrigins" | "dbLockTimeoutMs">;
  logger: Logger;
  metrics: Pick<Metrics, "httpRequests" | "httpDuration">;
  database: Pick<Database, "waitForWriteLock">;
}

/** The HTTP plumbing plugin. `bodies` checks bodies against their route's schema while they are parsed. */
export function httpPlugin(deps: HttpNeeds, lifecycle: Lifecycle, bodies: BodyGuard, gate: CredentialGate | null = null) {
  const info = new WeakMap<Request, RequestInfo>();
  const requestIdOf = (request: Request) => info.get(request)?.id ?? crypto.randomUUID();
  const cors = createCorsPolicy(deps.config.corsOrigins, deps.config.wsOrigins);

  return (
    new Elysia({ name: "hoot-http" })
      .onRequest(({ request, set }) => {
        const incoming = request.headers.get("x-request-id");
        const id = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
        const path = pathOf(request.url);
        const origin = request.headers.get("origin");
        const corsHeaders = origin === null ? null : cors.allow(origin, path);
        info.set(request, { id, start: performance.now(), cors: corsHeaders });
        set.headers["x-request-id"] = id;
        if (corsHeaders) Object.assign(set.headers, corsHeaders);
        if (isPreflight(request)) {
          if (!corsHeaders) throw new OriginNotAllowed("HOOT_CORS_ORIGINS");
          return new Response(null, { status: 204, headers: { "x-request-id": id, ...corsHeaders, ...cors.preflightHeaders } });
        }
        if (path === "/interact" && !cors.websocketAllowed(origin)) throw new OriginNotAllowed("HOOT_WS_ORIGINS");
        if (lifecycle.draining) throw new Unavailable("The server is shutting down.");
        checkBody(request, deps.config.bodyLimit);
      })
      // Our own JSON parser: enforces the body limit on chunked bodies too, refuses deep nesting in linear time,
      // gives one clear error for bad JSON, and validates against the route's schema before Elysia does.
      // Elysia runs it for every method but GET and HEAD, with or without a body, so it is also where a write
      // waits, asynchronously, while another process holds the database's write lock: the handler's synchronous
      // statements then find it free instead of stalling the event loop. (Here rather than in a global
      // beforeHandle, which would make every GET handler async too.)
      .onParse({ as: "global" }, async ({ request, route, server }) => {
        if (request.method === "GET" || request.method === "HEAD") return;
        await gate?.check(request, route, server);
        const bytes = new Uint8Array(await request.arrayBuffer());
        if (bytes.length > deps.config.bodyLimit) throw new PayloadTooLarge(deps.config.bodyLimit);
        const body = bytes.length === 0 ? undefined : parseJsonBody(bytes);
        if (body !== undefined) bodies.check(request.method, route, body);
        if (WRITE_METHODS.has(request.method) && !READ_ONLY_WRITES.has(`${request.method} ${route}`)) {
          await deps.database.waitForWriteLock(deps.config.dbLockTimeoutMs);
        }
        return body;
      })
      // Queries and paths are validated after this; bodies were checked in onParse (a second check is a no-op).
      .onTransform({ as: "global" }, async ({ request, route, server }) => {
        await gate?.check(request, route, server);
      })
      .onError({ as: "global" }, ({ code, error, request }) => {
        const mapped = toHttpError(mapError(code, error));
        const entry = info.get(request);
        if (entry) entry.status = mapped.status;
        if (mapped.status === 500)
          deps.logger.error({ event: "unhandled_error", requestId: requestIdOf(request), err: errorSummary(error) }, "unhandled error");
        if (mapped.body.code === "database_busy")
          deps.logger.warn({ event: "database_busy", requestId: requestIdOf(request) }, "database write lock held elsewhere");
        return new Response(JSON.stringify(mapped.body), {
          status: mapped.status,
          headers: { "content-type": "application/json", "x-request-id": requestIdOf(request), ...entry?.cors, ...mapped.headers },
        });
      })
      .onAfterResponse({ as: "global" }, ({ request, route, set, response }) => {
        const entry = info.get(request);
        const durationMs = entry ? performance.now() - entry.start : 0;
        const status = entry?.status ?? (response instanceof Response ? response.status : typeof set.status === "number" ? set.status : 200);
        const method = request.method;
        const routeLabel = route || "unmatched";
        deps.metrics.httpRequests.inc({ method, route: routeLabel, status: String(status) });
        deps.metrics.httpDuration.observe({ method, route: routeLabel }, durationMs / 1000);
        deps.logger.info(
          { event: "http_request", requestId: entry?.id, method, route: routeLabel, status, durationMs: Math.round(durationMs * 100) / 100 },
          "request",
        );
      })
  );
}

function pathOf(url: string): string {
  // Bun gives absolute URLs; the path starts at the first "/" after "scheme://host".
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  return url.slice(start, query === -1 ? undefined : query);
}

function checkBody(request: Request, limit: number): void {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "DELETE" || request.method === "OPTIONS") return;
  const length = request.headers.get("content-length");
  if (length !== null && Number(length) > limit) throw new PayloadTooLarge(limit);
  const hasBody = (length !== null && Number(length) > 0) || request.headers.has("transfer-encoding");
  const type = request.headers.get("content-type") ?? "";
  if (hasBody && !/^application\/([a-z.+-]*\+)?json\b/i.test(type)) throw new UnsupportedMediaType();
}

function mapError(code: string | number, error: unknown): unknown {
  if (error instanceof AppError) return error;
  const database = mapDatabaseError(error);
  if (database) return database;
  if (error instanceof ValidationError) {
    if (error.type === "params") return new InvalidRequest("The id in the path must be a positive whole number.", "invalid_path");
    // "property": Elysia's coercion of one query value (a number, a boolean), which names no field.
    const where = error.type === "query" || error.type === "property" ? "query" : "body";
    return new InvalidRequest(describeValidation(where, firstErrors(error)));
  }
  if (code === "PARSE") {
    // Elysia wraps whatever our parser threw (413, invalid_body, a validation sentence) in its ParseError.
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof AppError) return cause;
    const database = mapDatabaseError(cause);
    if (database) return database;
    return new InvalidRequest("The request body is not valid JSON.", "invalid_json");
  }
  if (code === "NOT_FOUND") return new NotFound("route");
  if (code === "INVALID_COOKIE_SIGNATURE") return new InvalidRequest("Invalid cookie.");
  return error;
}

/**
 * Database errors a service did not turn into its own answer: busy (503 database_busy), PostgreSQL gone (503
 * unavailable), a unique index refusing a duplicate that two requests raced to write (409), an id past the
 * column's range, which names nothing (404).
 */
function mapDatabaseError(error: unknown): AppError | null {
  if (isBusyError(error)) return new DatabaseBusy();
  if (isConnectionError(error)) return new Unavailable("The database cannot be reached; try again shortly.");
  if (isUniqueViolation(error)) return new Conflict("This conflicts with something stored at the same moment; try again.");
  if ((rootCause(error) as { errno?: unknown } | null)?.errno === "22003") return new NotFound();
  return null;
}

// The first problem is enough to name the field (Elysia's `all` would walk every error again).
function firstErrors(error: ValidationError): { path?: string; type?: number; schema?: unknown }[] {
  const first = (error as unknown as { valueError?: { path?: string; type?: number; schema?: unknown } }).valueError;
  return first ? [first] : [];
}

// The driver's own error, never drizzle's wrapper: its message repeats the query's parameters.
function errorSummary(error: unknown): { name: string; message: string } {
  const cause = rootCause(error);
  return cause instanceof Error ? { name: cause.name, message: cause.message.slice(0, 200) } : { name: "unknown", message: "" };
}

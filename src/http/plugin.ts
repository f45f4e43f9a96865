/**
 * Cross-cutting HTTP behaviour, registered once in app.ts: request ids, the one request log line, body size
 * and media-type checks, and the mapping of every error (ours, Elysia's parse/validation/not-found) to
 * `{error, code}` with the right status. Nothing here knows about features.
 */
import { Elysia, ValidationError } from "elysia";
import type { Deps } from "../deps.ts";
import { AppError, InvalidRequest, NotFound, PayloadTooLarge, UnsupportedMediaType, Unavailable, toHttpError } from "../errors.ts";
import { describeValidation } from "./validation.ts";

interface RequestInfo {
  id: string;
  start: number;
  /** Set when onError answered, since the after-response hook cannot see that response's status. */
  status?: number;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** State shared with main.ts: flips to draining on SIGTERM so new requests get 503. */
export interface Lifecycle {
  draining: boolean;
}

/** The HTTP plumbing plugin. */
export function httpPlugin(deps: Pick<Deps, "config" | "logger" | "metrics">, lifecycle: Lifecycle) {
  const info = new WeakMap<Request, RequestInfo>();
  const requestIdOf = (request: Request) => info.get(request)?.id ?? crypto.randomUUID();

  return new Elysia({ name: "hoot-http" })
    .onRequest(({ request, set }) => {
      const incoming = request.headers.get("x-request-id");
      const id = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
      info.set(request, { id, start: performance.now() });
      set.headers["x-request-id"] = id;
      if (lifecycle.draining) throw new Unavailable("The server is shutting down.");
      checkBody(request, deps.config.bodyLimit);
    })
    // Our own JSON parser: enforces the body limit on chunked bodies too, and gives one clear error for bad JSON.
    .onParse({ as: "global" }, async ({ request }) => {
      if (request.method === "GET" || request.method === "HEAD") return;
      const bytes = new Uint8Array(await request.arrayBuffer());
      if (bytes.length > deps.config.bodyLimit) throw new PayloadTooLarge(deps.config.bodyLimit);
      if (bytes.length === 0) return undefined;
      try {
        return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as unknown;
      } catch {
        throw new InvalidRequest("The request body is not valid JSON.", "invalid_json");
      }
    })
    .onError({ as: "global" }, ({ code, error, request }) => {
      const mapped = toHttpError(mapError(code, error));
      const entry = info.get(request);
      if (entry) entry.status = mapped.status;
      if (mapped.status === 500) deps.logger.error({ event: "unhandled_error", requestId: requestIdOf(request), err: errorSummary(error) }, "unhandled error");
      return new Response(JSON.stringify(mapped.body), {
        status: mapped.status,
        headers: { "content-type": "application/json", "x-request-id": requestIdOf(request), ...mapped.headers },
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
      deps.logger.info({ event: "http_request", requestId: entry?.id, method, route: routeLabel, status, durationMs: Math.round(durationMs * 100) / 100 }, "request");
    });
}

function checkBody(request: Request, limit: number): void {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "DELETE") return;
  const length = request.headers.get("content-length");
  if (length !== null && Number(length) > limit) throw new PayloadTooLarge(limit);
  const hasBody = (length !== null && Number(length) > 0) || request.headers.has("transfer-encoding");
  const type = request.headers.get("content-type") ?? "";
  if (hasBody && !/^application\/([a-z.+-]*\+)?json\b/i.test(type)) throw new UnsupportedMediaType();
}

function mapError(code: string | number, error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof ValidationError) {
    if (error.type === "params") return new InvalidRequest("The id in the path must be a positive whole number.", "invalid_path");
    const where = error.type === "query" ? "query" : "body";
    const all = (error as unknown as { all?: { path?: string; message?: string; type?: number }[] }).all ?? [];
    return new InvalidRequest(describeValidation(where, all));
  }
  if (code === "PARSE") return new InvalidRequest("The request body is not valid JSON.", "invalid_json");
  if (code === "NOT_FOUND") return new NotFound("route");
  if (code === "INVALID_COOKIE_SIGNATURE") return new InvalidRequest("Invalid cookie.");
  return error;
}

function errorSummary(error: unknown): { name: string; message: string } {
  return error instanceof Error ? { name: error.name, message: error.message.slice(0, 200) } : { name: "unknown", message: "" };
}

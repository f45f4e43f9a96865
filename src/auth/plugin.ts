/**
 * The "who is calling" plugin: two macros every feature uses. `auth: ["developer"]` (or a list of team
 * kinds) resolves the bearer value to a team-scoped Caller before the handler runs; `access: [...]` does the
 * same for routes that also (or only) serve the operator, and hands over the full Caller union.
 * No or bad credentials: 401. Authenticated but not listed: 403. Player tokens reach nothing over HTTP (403):
 * players only talk over the interact socket. Operator tokens reach only routes that list "operator".
 * A raw developer key as the bearer value is accepted only where a route lists "developer-key" (creating
 * players, as PROTOCOL.md allows), and its failures count against the caller's address like failed logins
 * (a key that checks out is never refused for its address).
 * Every authenticated answer carries `Cache-Control: no-store`: many carry secrets (keys, federated ids),
 * and none is meant for a shared cache.
 */
import { Elysia } from "elysia";
import type { Config } from "../config.ts";
import { Forbidden, TooManyRequests, Unauthorized } from "../errors.ts";
import { type AddressSource, clientAddress } from "../http/client-address.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { Caller, CallerResolver, OperatorCaller, TeamCaller } from "./caller.ts";
import type { LoginLimiter } from "./rate-limit.ts";

export type CallerKind = Caller["kind"];
export type { Caller, OperatorCaller, TeamCaller };

/** What the auth plugin needs (boot/ hands it the whole set of dependencies, which has all of this). */
export interface AuthNeeds {
  callers: CallerResolver;
  metrics: Pick<Metrics, "authFailures">;
  logger: Logger;
  loginLimiter: LoginLimiter;
  config: Pick<Config, "trustProxy">;
}

/**
 * The OpenAPI security of a guarded route: a bearer token, or also the developer API key itself where a route
 * takes it. The credential gate below finds the routes that need a credential by it.
 */
const BEARER: Record<string, string[]>[] = [{ bearer: [] }];
const BEARER_OR_KEY: Record<string, string[]>[] = [{ bearer: [] }, { developerKey: [] }];

// The caller the gate identified before the body or query was validated, so the macro need not ask again.
const identifiedEarly = new WeakMap<Request, Caller>();

interface RouteLike {
  method: string;
  path: string;
  hooks?: { detail?: unknown };
}

/**
 * Answers 401 (or 403, 429) before a request's body or query is validated, on every route the `auth` and
 * `access` macros guard: a caller without a valid credential learns nothing about the fields a route takes.
 * app.ts calls `learn` once the routes exist; the HTTP plugin calls `check` as the body is parsed (and before
 * a query is validated).
 */
export function credentialGate(deps: AuthNeeds) {
  const identify = callerOf(deps);
  // "METHOD path" -> whether a raw developer key may be the bearer value.
  const routes = new Map<string, boolean>();
  return {
    learn(list: readonly RouteLike[]): void {
      for (const route of list) {
        const security = (route.hooks?.detail as { security?: unknown } | undefined)?.security;
        if (!Array.isArray(security)) continue;
        const schemes = new Set(security.flatMap((entry) => (typeof entry === "object" && entry !== null ? Object.keys(entry) : [])));
        if (schemes.has("bearer")) routes.set(`${route.method} ${route.path}`, schemes.has("developerKey"));
      }
    },
    async check(request: Request, route: string, server: AddressSource | null): Promise<void> {
      const rawKeyAllowed = routes.get(`${request.method} ${route}`);
      if (rawKeyAllowed === undefined || identifiedEarly.has(request)) return;
      identifiedEarly.set(request, await identify(request, server, rawKeyAllowed));
    },
  };
}

/** Registers the `auth` and `access` macros. */
export function authPlugin(deps: AuthNeeds) {
  const identify = callerOf(deps);
  const callerFor = async (request: Request, server: AddressSource | null, rawKeyAllowed: boolean) =>
    identifiedEarly.get(request) ?? (await identify(request, server, rawKeyAllowed));
  return new Elysia({ name: "hoot-auth" }).macro({
    auth: (allowed: (Exclude<TeamCaller["kind"], "player"> | "developer-key")[]) => ({
      detail: { security: allowed.includes("developer-key") ? BEARER_OR_KEY : BEARER },
      async resolve({ request, server, set }) {
        set.headers["cache-control"] = "no-store";
        const caller = await callerFor(request, server, allowed.includes("developer-key"));
        if (caller.kind === "player") throw new Forbidden("Player tokens are only for the interact websocket.");
        if (caller.kind === "operator") throw new Forbidden("Operator tokens reach only the operator routes.");
        if (!(allowed as CallerKind[]).includes(caller.kind)) throw new Forbidden();
        return { caller };
      },
    }),
    access: (allowed: Exclude<CallerKind, "player">[]) => ({
      detail: { security: BEARER },
      async resolve({ request, server, set }) {
        set.headers["cache-control"] = "no-store";
        const caller = await callerFor(request, server, false);
        if (caller.kind === "player") throw new Forbidden("Player tokens are only for the interact websocket.");
        if (!allowed.includes(caller.kind)) {
          throw new Forbidden(
            allowed.length === 1 && allowed[0] === "operator" ? "Only an operator token may do this (hoot admin create-operator-key)." : undefined,
          );
        }
        return { caller };
      },
    }),
  });
}

/** The user id of a developer caller; the macros guarantee the kind, this narrows the type. */
export function developerId(caller: Caller): number {
  if (caller.kind !== "developer") throw new Forbidden();
  return caller.userId;
}

function callerOf(deps: AuthNeeds) {
  return async (request: Request, server: AddressSource | null, rawKeyAllowed: boolean): Promise<Caller> => {
    const header = request.headers.get("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const bearer = match?.[1];
    let caller: Caller | null = null;
    if (bearer?.startsWith("hoot_")) {
      if (!rawKeyAllowed) throw new Unauthorized();
      caller = await deps.callers.fromBearer(bearer);
      if (!caller) {
        const bucket = `ip:${clientAddress(request, server, deps.config.trustProxy, deps.logger)}`;
        const wait = await deps.loginLimiter.retryAfter(bucket);
        await deps.loginLimiter.recordFailure(bucket);
        if (wait > 0) throw new TooManyRequests(wait);
      }
    } else if (bearer) {
      caller = await deps.callers.fromBearer(bearer);
    }
    if (!caller) {
      deps.metrics.authFailures.inc({ reason: match ? "bad_bearer" : "missing_bearer" });
      deps.logger.warn({ event: "auth_failed", reason: match ? "bad_bearer" : "missing_bearer" }, "request not authenticated");
      throw new Unauthorized();
    }
    return caller;
  };
}

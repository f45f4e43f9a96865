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
import type { Deps } from "../deps.ts";
import { Forbidden, TooManyRequests, Unauthorized } from "../errors.ts";
import { clientAddress, type AddressSource } from "../http/client-address.ts";
import type { Caller, OperatorCaller, TeamCaller } from "./caller.ts";

export type CallerKind = Caller["kind"];
export type { Caller, OperatorCaller, TeamCaller };

type AuthDeps = Pick<Deps, "callers" | "metrics" | "logger" | "loginLimiter" | "config">;

/** Registers the `auth` and `access` macros. */
export function authPlugin(deps: AuthDeps) {
  const identify = callerOf(deps);
  return new Elysia({ name: "hoot-auth" }).macro({
    auth: (allowed: (Exclude<TeamCaller["kind"], "player"> | "developer-key")[]) => ({
      async resolve({ request, server, set }) {
        set.headers["cache-control"] = "no-store";
        const caller = await identify(request, server, allowed.includes("developer-key"));
        if (caller.kind === "player") throw new Forbidden("Player tokens are only for the interact websocket.");
        if (caller.kind === "operator") throw new Forbidden("Operator tokens reach only the operator routes.");
        if (!(allowed as CallerKind[]).includes(caller.kind)) throw new Forbidden();
        return { caller };
      },
    }),
    access: (allowed: Exclude<CallerKind, "player">[]) => ({
      async resolve({ request, server, set }) {
        set.headers["cache-control"] = "no-store";
        const caller = await identify(request, server, false);
        if (caller.kind === "player") throw new Forbidden("Player tokens are only for the interact websocket.");
        if (!allowed.includes(caller.kind)) {
          throw new Forbidden(allowed.length === 1 && allowed[0] === "operator" ? "Only an operator token may do this (hoot admin create-operator-key)." : undefined);
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

function callerOf(deps: AuthDeps) {
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

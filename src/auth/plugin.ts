/**
 * The "who is calling" plugin: a `auth` macro every feature uses. `auth: ["developer"]` (or a list of
 * kinds) resolves the bearer value to a Caller before the handler runs. No or bad credentials: 401.
 * Player tokens reach nothing over HTTP (403): players only talk over the interact socket.
 * A raw developer key as the bearer value is accepted only where a route lists "developer-key" (creating
 * players, as PROTOCOL.md allows), and its failures count against the caller's address like failed logins.
 */
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { Forbidden, TooManyRequests, Unauthorized } from "../errors.ts";
import { clientAddress } from "../http/client-address.ts";
import type { Caller, TeamCaller } from "./caller.ts";

export type CallerKind = Caller["kind"];
export type { Caller, TeamCaller };

/** Registers the `auth` macro. */
export function authPlugin(deps: Pick<Deps, "callers" | "metrics" | "logger" | "loginLimiter" | "config">) {
  return new Elysia({ name: "hoot-auth" }).macro({
    auth: (allowed: (Exclude<CallerKind, "player"> | "developer-key")[]) => ({
      async resolve({ request, server }) {
        const header = request.headers.get("authorization") ?? "";
        const match = /^Bearer\s+(\S+)$/i.exec(header);
        const bearer = match?.[1];
        let caller: Caller | null = null;
        if (bearer?.startsWith("hoot_")) {
          if (!allowed.includes("developer-key")) throw new Unauthorized();
          const bucket = `ip:${clientAddress(request, server, deps.config.trustProxy)}`;
          const wait = deps.loginLimiter.retryAfter(bucket);
          if (wait > 0) throw new TooManyRequests(wait);
          caller = await deps.callers.fromBearer(bearer);
          if (!caller) deps.loginLimiter.recordFailure(bucket);
        } else if (bearer) {
          caller = await deps.callers.fromBearer(bearer);
        }
        if (!caller) {
          deps.metrics.authFailures.inc({ reason: match ? "bad_bearer" : "missing_bearer" });
          deps.logger.warn({ event: "auth_failed", reason: match ? "bad_bearer" : "missing_bearer" }, "request not authenticated");
          throw new Unauthorized();
        }
        if (caller.kind === "player") throw new Forbidden("Player tokens are only for the interact websocket.");
        if (!(allowed as CallerKind[]).includes(caller.kind)) throw new Forbidden();
        return { caller };
      },
    }),
  });
}

/** The user id of a developer caller; the `auth: ["developer"]` macro guarantees the kind, this narrows the type. */
export function developerId(caller: Caller): number {
  if (caller.kind !== "developer") throw new Forbidden();
  return caller.userId;
}

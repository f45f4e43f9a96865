/**
 * The "who is calling" plugin: a `auth` macro every feature uses. `auth: ["developer"]` (or a list of
 * kinds) resolves the bearer value to a Caller before the handler runs. No or bad credentials: 401.
 * Player tokens reach nothing over HTTP (403): players only talk over the interact socket.
 */
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { Forbidden, Unauthorized } from "../errors.ts";
import type { Caller } from "./caller.ts";

export type CallerKind = Caller["kind"];
export type { Caller };

/** Registers the `auth` macro. */
export function authPlugin(deps: Pick<Deps, "callers" | "metrics" | "logger">) {
  return new Elysia({ name: "hoot-auth" }).macro({
    auth: (allowed: Exclude<CallerKind, "player">[]) => ({
      async resolve({ request }) {
        const header = request.headers.get("authorization") ?? "";
        const match = /^Bearer\s+(\S+)$/i.exec(header);
        const caller = match ? await deps.callers.fromBearer(match[1]!) : null;
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

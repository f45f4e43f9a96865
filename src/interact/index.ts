/**
 * Route: the interact websocket at `/interact` (the root of the same host and port as `/api`). Transport
 * only: it keys sessions by `ws.id` (Elysia hands out a new wrapper object per event), turns each event
 * into a call on the session, and enforces the total socket cap. Message size (1009) and a client that
 * stops reading (backpressure limit) are enforced by Bun's websocket settings, set in app.ts.
 */
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import type { Engine } from "../engine/types.ts";
import { CloseCode, fatal } from "./protocol.ts";
import { createSessionRegistry, type SessionRegistry } from "./registry.ts";
import { InteractSession, type SessionDeps } from "./session.ts";
import type { SessionConfig } from "./model.ts";

export interface Interact {
  plugin: Elysia;
  registry: SessionRegistry;
}

/** The interact controller and its session registry. */
export function interactRoutes(deps: Deps, engine: Engine): Interact {
  const { config } = deps;
  const registry = createSessionRegistry(config.wsMaxSocketsPerPlayer, deps.revocations);
  const sessions = new Map<string, InteractSession>();
  // Sockets not yet authenticated, per remote address, and the address of each such socket.
  const pendingByAddress = new Map<string, number>();
  const pendingAddress = new Map<string, string>();
  const settle = (id: string) => {
    const address = pendingAddress.get(id);
    if (address === undefined) return;
    pendingAddress.delete(id);
    const left = (pendingByAddress.get(address) ?? 1) - 1;
    if (left > 0) pendingByAddress.set(address, left);
    else pendingByAddress.delete(address);
  };
  const sessionDeps: SessionDeps = {
    db: deps.db,
    engine,
    logger: deps.logger,
    historyBudgetChars: config.historyBudgetChars,
    authenticate: async (token) => {
      const caller = await deps.callers.fromToken(token);
      if (!caller || caller.kind !== "player") {
        deps.metrics.authFailures.inc({ reason: "ws_bad_token" });
        deps.logger.warn({ event: "ws_auth_failed", tokenChars: token.length }, "interact authentication failed");
      }
      return caller;
    },
    admit: (session, playerId) => {
      const admitted = registry.admit(session, playerId);
      if (admitted) settle(session.id);
      return admitted;
    },
    validateConfig: (c) => validateAgainstEngine(c, engine),
    limits: {
      authTimeoutMs: config.wsAuthTimeoutMs,
      messagesPerMinute: config.wsMessagesPerMinute,
      maxInteractChars: config.wsMaxInteractChars,
      clockToleranceSeconds: config.clockToleranceSeconds,
    },
  };

  const plugin = new Elysia({ name: "interact" }).ws("/interact", {
    detail: { hide: true },
    open(ws) {
      if (registry.size >= config.wsMaxSockets) {
        ws.raw.send(fatal("the server has too many open sockets; try again later", "server_busy"));
        ws.raw.close(CloseCode.tryAgainLater, "server busy");
        return;
      }
      const address = ws.remoteAddress || "unknown";
      if ((pendingByAddress.get(address) ?? 0) >= config.wsMaxUnauthenticatedPerAddress) {
        ws.raw.send(fatal("too many sockets from this address are waiting to authenticate", "too_many_pending"));
        ws.raw.close(CloseCode.tryAgainLater, "too many pending sockets");
        return;
      }
      pendingByAddress.set(address, (pendingByAddress.get(address) ?? 0) + 1);
      pendingAddress.set(ws.id, address);
      const session = new InteractSession(ws.id, ws.raw, sessionDeps);
      sessions.set(ws.id, session);
      registry.add(session);
      deps.metrics.wsSessions.inc();
    },
    message(ws, message) {
      const session = sessions.get(ws.id);
      if (!session) return;
      const payload = Buffer.isBuffer(message) || message instanceof Uint8Array ? { binary: true } : message;
      // receive() never throws: it answers every failure on the socket itself.
      void session.receive(payload);
    },
    close(ws, code) {
      const session = sessions.get(ws.id);
      if (!session) return;
      deps.logger.info({ event: "ws_closed", session: ws.id, code, player: session.player?.playerId }, "interact socket closed");
      sessions.delete(ws.id);
      settle(ws.id);
      session.closed();
      registry.remove(session);
      deps.metrics.wsSessions.dec();
    },
  });
  return { plugin: plugin as unknown as Elysia, registry };
}

/** Checks a configuration against what the engine offers; a sentence naming the field, or null. */
function validateAgainstEngine(c: SessionConfig, engine: Engine): string | null {
  const voice = c.voice_profile?.voice_id;
  if (voice !== undefined && !engine.voices().includes(voice)) {
    return `field "config.voice_profile.voice_id": unknown voice "${voice}" (available: ${engine.voices().join(", ")})`;
  }
  const policy = typeof c.safety_policy === "string" ? c.safety_policy : c.safety_policy?.reference;
  if (policy !== undefined && !SAFETY_POLICIES.includes(policy)) {
    return `field "config.safety_policy": unknown policy "${policy}" (available: ${SAFETY_POLICIES.join(", ")})`;
  }
  for (const [name, utility] of Object.entries(c.utilities ?? {})) {
    if (utility !== null) return `field "config.utilities.${name}": unknown utility "${name}" (no utilities are configured on this server)`;
  }
  return null;
}

/** Built-in safety policies; the first is the default (the strictest children's policy). */
export const SAFETY_POLICIES = ["children_strict", "children_standard"];

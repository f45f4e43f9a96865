/**
 * All socket bookkeeping of the interact websocket, in one place: every open session by socket id, sockets
 * still waiting to authenticate per remote address, sessions per player, the totals and their caps, and the
 * closes that revocation and shutdown cause. It is also the one place that talks to the auth module (resolving
 * a player token, hearing about revocations), so the session itself depends on neither.
 *
 * Rules it keeps:
 * - at most `wsMaxSockets` sockets in all (1013), `wsMaxUnauthenticatedPerAddress` waiting to authenticate
 *   per address (1013), and `wsMaxSocketsPerPlayer` per player (4429 when one more authenticates); on
 *   PostgreSQL the per-player cap holds across every node (a lease per socket: src/cluster/socket-leases.ts),
 *   and when the database cannot answer, this node's own count decides;
 * - a revoked player or service account closes its sockets at once (4403), each running stream first; when
 *   revocations may have been missed (a cluster node's listening connection came back), every open socket's
 *   credential is re-checked against the database and the revoked ones close the same way;
 * - shutdown ends every stream with its close, then closes every socket (1001).
 */

import type { CallerResolver } from "../auth/caller.ts";
import type { AuthLookups } from "../auth/lookups.ts";
import type { RevocationBus } from "../auth/revocations.ts";
import type { Cluster } from "../cluster/index.ts";
import type { Config } from "../config.ts";
import type { Engine } from "../engine/index.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import { FATAL, fatal } from "./protocol.ts";
import { InteractSession, type PlayerIdentity, type SessionPorts, type SessionSocket } from "./session.ts";
import { voicePorts } from "./voice.ts";

/** What the interact socket needs from the app. */
export interface InteractNeeds {
  config: Config;
  logger: Logger;
  metrics: Pick<Metrics, "authFailures" | "wsSessions">;
  callers: Pick<CallerResolver, "fromToken">;
  revocations: Pick<RevocationBus, "subscribe" | "resubscribed">;
  lookups: Pick<AuthLookups, "players">;
  cluster: Pick<Cluster, "socketLeases"> | null;
}

/**
 * What the composition root (src/boot) hands the interact socket: the conversation history, the stored
 * configurations a configuration may name, and the safety ports (team policies, incidents, moderation).
 */
export type InteractPorts = Pick<SessionPorts, "history" | "stored" | "safety" | "dataModes">;

export interface Connections {
  /** Open sockets. */
  readonly size: number;
  /** A new socket: its session, or null when a cap refused it (the socket was told why and closed). */
  open(id: string, socket: SessionSocket, address: string): InteractSession | null;
  /** The session of an open socket. */
  get(id: string): InteractSession | undefined;
  /** The socket is gone (closed by either side). */
  closed(id: string, code: number): void;
  /** Every stream sends its close, then every socket closes with 1001. */
  shutdown(): Promise<void>;
}

/**
 * The bookkeeping for one server.
 * @example const connections = createConnections(deps, engine, { history, stored, safety })
 */
export function createConnections(deps: InteractNeeds, engine: Engine, handed: InteractPorts): Connections {
  const { config, logger, metrics } = deps;
  const connections = new Map<string, InteractSession>();
  // The address of each socket still waiting to authenticate, by socket id (an entry only while it waits).
  const pendingAddresses = new Map<string, string>();
  // The credential version each authenticated identity's token carries, for re-checks.
  const versions = new WeakMap<PlayerIdentity, number>();
  const pendingByAddress = new Map<string, number>();
  const byPlayer = new Map<number, Set<InteractSession>>();
  // The player each admitted (or being admitted) session counts against, by socket id.
  const admitted = new Map<string, number>();
  const leases = deps.cluster?.socketLeases ?? null;

  const settle = (id: string): void => {
    const address = pendingAddresses.get(id);
    if (address === undefined) return;
    pendingAddresses.delete(id);
    const left = (pendingByAddress.get(address) ?? 1) - 1;
    if (left > 0) pendingByAddress.set(address, left);
    else pendingByAddress.delete(address);
  };

  const ports: Omit<SessionPorts, "admit"> = {
    engine,
    history: handed.history,
    stored: handed.stored,
    logger,
    safety: handed.safety,
    dataModes: handed.dataModes,
    voice: voicePorts(config, logger),
    limits: {
      authTimeoutMs: config.wsAuthTimeoutMs,
      maxMessageBytes: config.wsMaxMessageBytes,
      messagesPerMinute: config.wsMessagesPerMinute,
      maxInteractChars: config.wsMaxInteractChars,
      clockToleranceSeconds: config.clockToleranceSeconds,
      closeAtTokenExpiry: config.wsCloseAtTokenExpiry,
      maxSessionMs: config.wsMaxSessionSeconds * 1000,
      configuration: { maxBytes: config.configMaxBytes, maxContextKeys: config.configMaxContextKeys, maxContextDepth: config.configMaxContextDepth },
      runsAtOnce: config.wsMaxRunsAtOnce,
      queuedAudioChunks: config.wsMaxQueuedAudioChunks,
    },
    models: servedModels(config),
    // The only use of the auth module's caller resolver.
    authenticate: async (token): Promise<PlayerIdentity | null> => {
      const caller = await deps.callers.fromToken(token);
      if (caller?.kind === "player") {
        const identity: PlayerIdentity = {
          playerId: caller.playerId,
          serviceAccountId: caller.serviceAccountId,
          teamId: caller.teamId,
          expiresAt: caller.expiresAt,
        };
        versions.set(identity, caller.version);
        return identity;
      }
      metrics.authFailures.inc({ reason: "ws_bad_token" });
      logger.warn({ event: "ws_auth_failed", tokenChars: token.length }, "interact authentication failed");
      return null;
    },
  };

  const forget = (session: InteractSession): void => {
    const playerId = admitted.get(session.id);
    if (playerId === undefined) return;
    admitted.delete(session.id);
    const sessions = byPlayer.get(playerId);
    sessions?.delete(session);
    if (sessions?.size === 0) byPlayer.delete(playerId);
  };

  const admit = (session: InteractSession, playerId: number): boolean | Promise<boolean> => {
    const prior = admitted.get(session.id);
    if (prior !== undefined) return prior === playerId;
    let sessions = byPlayer.get(playerId);
    if (!sessions) byPlayer.set(playerId, (sessions = new Set()));
    if (sessions.size >= config.wsMaxSocketsPerPlayer) return false;
    // Counted here at once, so admissions racing on this node see each other.
    sessions.add(session);
    admitted.set(session.id, playerId);
    const done = (ok: boolean): boolean => {
      const open = connections.has(session.id);
      if (!ok || !open) {
        forget(session);
        if (ok) void leases?.release(session.id);
        return false;
      }
      settle(session.id);
      return true;
    };
    if (!leases) return done(true);
    return leases.acquire(session.id, playerId, config.wsMaxSocketsPerPlayer).then(done, (error: unknown) => {
      logger.warn(
        { event: "socket_lease_failed", player: playerId, err: error instanceof Error ? error.message : String(error) },
        "could not count the player's sockets across nodes: this node's count decides",
      );
      return done(true);
    });
  };

  // One ports object for every session (a session keeps a reference, not a copy).
  const sessionPorts: SessionPorts = { ...ports, admit };

  // The only use of the auth module's revocation bus.
  deps.revocations.subscribe((revocation) => {
    const doomed: InteractSession[] = [];
    if (revocation.kind === "player") doomed.push(...(byPlayer.get(revocation.playerId) ?? []));
    if (revocation.kind === "service-account") {
      for (const session of connections.values()) if (session.player?.serviceAccountId === revocation.serviceAccountId) doomed.push(session);
    }
    for (const session of doomed) void session.shutdown("credential_revoked", "the player's credential was revoked or the player was deleted");
  });

  // Publications may have been missed: ask the database about every authenticated socket (one query each, as
  // a token use would), and close those whose player, federated id or service account is no longer current.
  deps.revocations.resubscribed(() => {
    void (async () => {
      const sessions = [...connections.values()];
      let closed = 0;
      for (const session of sessions) {
        const identity = session.player;
        const version = identity && versions.get(identity);
        if (!identity || version === undefined) continue;
        let current: boolean;
        try {
          const state = await deps.lookups.players.tokenState(identity.playerId, identity.serviceAccountId);
          current = state !== null && state.version === version && state.teamId === identity.teamId && state.serviceAccountTeamId === identity.teamId;
        } catch (error) {
          // Unknown is not revoked: the next re-subscription (or the session's end) checks again.
          logger.warn(
            { event: "ws_recheck_failed", session: session.id, err: error instanceof Error ? error.message : String(error) },
            "could not re-check a socket's credential",
          );
          continue;
        }
        if (current || session.player !== identity) continue;
        closed++;
        void session.shutdown("credential_revoked", "the player's credential was revoked or the player was deleted");
      }
      logger.info({ event: "ws_recheck", sockets: sessions.length, closed }, "re-checked open sockets' credentials");
    })();
  });

  const refuse = (socket: SessionSocket, code: "server_busy" | "too_many_pending", error: string): null => {
    socket.send(JSON.stringify(fatal(error, code)));
    socket.close(FATAL[code].close, code);
    return null;
  };

  return {
    get size() {
      return connections.size;
    },
    open(id, socket, address) {
      if (connections.size >= config.wsMaxSockets) return refuse(socket, "server_busy", "the server has too many open sockets; try again later");
      if ((pendingByAddress.get(address) ?? 0) >= config.wsMaxUnauthenticatedPerAddress) {
        return refuse(socket, "too_many_pending", "too many sockets from this address are waiting to authenticate");
      }
      pendingByAddress.set(address, (pendingByAddress.get(address) ?? 0) + 1);
      const session = new InteractSession(id, socket, sessionPorts);
      connections.set(id, session);
      pendingAddresses.set(id, address);
      metrics.wsSessions.inc();
      return session;
    },
    get: (id) => connections.get(id),
    closed(id, code) {
      const session = connections.get(id);
      if (!session) return;
      logger.info({ event: "ws_closed", session: id, code, player: session.player?.playerId }, "interact socket closed");
      connections.delete(id);
      settle(id);
      session.closed();
      if (admitted.has(id)) void leases?.release(id);
      forget(session);
      metrics.wsSessions.dec();
    },
    async shutdown() {
      await Promise.all([...connections.values()].map((session) => session.shutdown("server_shutting_down", "the server is shutting down")));
    },
  };
}

/**
 * The language models this server serves, as get_available_models lists them (one: the configured provider's).
 * @example servedModels({ llmProvider: "local", llmModel: "gpt-4o-mini" }) // Map { "local" => "…" }
 */
export function servedModels(config: Pick<Config, "llmProvider" | "llmModel">): ReadonlyMap<string, string> {
  return config.llmProvider === "local"
    ? new Map([["local", "hoot's built-in offline stand-in for development and tests (not an AI)"]])
    : new Map([[config.llmModel, "the OpenAI-compatible model this server is configured with"]]);
}

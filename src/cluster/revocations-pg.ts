/**
 * Revocations across nodes on PostgreSQL: every publication is a `pg_notify` on one channel, and every node
 * LISTENs on it over one dedicated connection (Bun.SQL's `listen`, which opens that connection beside the
 * pool, reconnects with backoff and re-subscribes on its own).
 *
 * Rules it keeps:
 * - this node's own listeners hear a publication at once, synchronously, as with the in-process bus (a socket
 *   here closes before the HTTP answer); other nodes hear it when PostgreSQL delivers the notification, and a
 *   node skips the echo of its own publications;
 * - a publication is made after the revoking transaction commits (`store.afterCommit`), so no node hears of a
 *   revocation whose data it cannot yet read;
 * - notifications sent while a node's listening connection is down are lost to it: every time the connection
 *   comes back (`onlisten` after the first), `resubscribed` listeners run, and the interact socket re-checks
 *   every open socket's credential against the database;
 * - no node caches credential state: every token use reads the database. Bun.SQL reports a re-subscription
 *   but not the moment its connection drops, so a cache guarded by "the subscription is live" would need a
 *   heartbeat of its own first (README, "What is shared, and how").
 *
 * The payload carries ids only (`{"n":node,"k":"player","id":7}`), never a secret.
 */

import { randomUUID } from "node:crypto";
import type { SQL } from "bun";
import type { Revocation, RevocationBus } from "../auth/revocations.ts";
import type { Logger } from "../log.ts";

/** The channel every node listens on. */
export const REVOCATION_CHANNEL = "hoot_revocations";

export interface ClusterRevocationBus extends RevocationBus {
  /** This node's id in payloads (random per process). */
  readonly nodeId: string;
  /** Subscribes (resolves once PostgreSQL acknowledged the LISTEN). */
  start(): Promise<void>;
  /** Waits for notifications still being sent, then unsubscribes. */
  stop(): Promise<void>;
}

type Wire = { n: string; k: "p" | "s" | "u"; id: number };

const KIND_TO_WIRE = { player: "p", "service-account": "s", user: "u" } as const;

function encode(nodeId: string, revocation: Revocation): string {
  const id = revocation.kind === "player" ? revocation.playerId : revocation.kind === "service-account" ? revocation.serviceAccountId : revocation.userId;
  return JSON.stringify({ n: nodeId, k: KIND_TO_WIRE[revocation.kind], id } satisfies Wire);
}

/** The revocation in a payload, or null for anything malformed (a notification from a stranger on the channel). */
export function decodeRevocation(payload: string): { nodeId: string; revocation: Revocation } | null {
  let wire: Partial<Wire>;
  try {
    wire = JSON.parse(payload) as Partial<Wire>;
  } catch {
    return null;
  }
  if (typeof wire !== "object" || wire === null || typeof wire.n !== "string" || !Number.isSafeInteger(wire.id)) return null;
  const id = wire.id as number;
  const revocation: Revocation | null =
    wire.k === "p"
      ? { kind: "player", playerId: id }
      : wire.k === "s"
        ? { kind: "service-account", serviceAccountId: id }
        : wire.k === "u"
          ? { kind: "user", userId: id }
          : null;
  return revocation && { nodeId: wire.n, revocation };
}

/**
 * The bus over a pool; `start()` subscribes.
 * @example const bus = createPgRevocationBus(pool, logger); await bus.start()
 */
export function createPgRevocationBus(pool: SQL, logger: Logger, options: { channel?: string } = {}): ClusterRevocationBus {
  const channel = options.channel ?? REVOCATION_CHANNEL;
  const nodeId = randomUUID();
  const listeners = new Set<(revocation: Revocation) => void>();
  const resubscribedListeners = new Set<() => void>();
  const sending = new Set<Promise<void>>();
  let subscription: Awaited<ReturnType<SQL["listen"]>> | null = null;
  let acknowledged = 0;
  let stopped = false;

  const deliver = (revocation: Revocation) => {
    for (const listener of listeners) {
      try {
        listener(revocation);
      } catch (error) {
        logger.error({ event: "revocation_listener_failed", err: error instanceof Error ? error.message : String(error) }, "a revocation listener failed");
      }
    }
  };

  const onNotify = (payload: string) => {
    const decoded = decodeRevocation(payload);
    if (!decoded) {
      logger.warn({ event: "revocation_notification_malformed", chars: payload.length }, "ignored a malformed revocation notification");
      return;
    }
    if (decoded.nodeId === nodeId) return;
    deliver(decoded.revocation);
  };

  const onListen = () => {
    if (++acknowledged === 1) return;
    // Reconnected: whatever was sent while the connection was down never reached us.
    logger.warn({ event: "revocations_resubscribed", times: acknowledged - 1 }, "revocation subscription re-established: re-checking open sockets");
    for (const listener of resubscribedListeners) {
      try {
        listener();
      } catch (error) {
        logger.error(
          { event: "revocation_recheck_failed", err: error instanceof Error ? error.message : String(error) },
          "re-checking after a re-subscription failed",
        );
      }
    }
  };

  return {
    nodeId,
    publish(revocation) {
      deliver(revocation);
      if (stopped) return;
      const sent = pool.notify(channel, encode(nodeId, revocation)).catch((error: unknown) => {
        // Other nodes miss this one; their sockets end with their session (or the next re-subscription's check).
        logger.error(
          { event: "revocation_notify_failed", kind: revocation.kind, err: error instanceof Error ? error.message : String(error) },
          "could not tell other nodes about a revocation",
        );
      });
      sending.add(sent);
      void sent.finally(() => sending.delete(sent));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    resubscribed(listener) {
      resubscribedListeners.add(listener);
      return () => resubscribedListeners.delete(listener);
    },
    async start() {
      subscription = await pool.listen(channel, onNotify, onListen);
    },
    async stop() {
      stopped = true;
      await Promise.all(sending);
      await subscription?.unlisten().catch(() => undefined);
      subscription = null;
    },
  };
}

/**
 * The per-player socket cap across nodes: one row in `socket_leases` per authenticated interact socket on any
 * node. Rules it keeps:
 * - admission is atomic per player: a transaction takes a transaction-level advisory lock on the player
 *   (so two nodes admitting the same player go one after the other; nothing else waits on it), drops the
 *   player's expired leases, counts the live ones and adds one only when under the cap;
 * - a node renews the leases of its live sockets every `renewMs` (one statement for all of them) and deletes
 *   them when the socket closes or the node stops; a node that dies stops renewing, and its leases stop
 *   counting `ttlMs` after their last renewal;
 * - lease ids are `<node>:<socket id>`: two nodes never collide.
 */
import type { SQL } from "bun";
import type { Logger } from "../log.ts";

// pg_advisory_xact_lock(int, int): "hoot" in ASCII + 2, then the player id.
const LEASE_LOCK_SPACE = 0x686f6f74 + 2;

export interface SocketLeases {
  /** Adds a lease for socket `socketId` of `playerId` unless the player holds `cap` live ones; false then. */
  acquire(socketId: string, playerId: number, cap: number): Promise<boolean>;
  /** The socket closed. */
  release(socketId: string): Promise<void>;
  /** Starts renewing. */
  start(): void;
  /** Stops renewing and deletes this node's leases. */
  stop(): Promise<void>;
}

/**
 * Leases for one node over its pool.
 * @example const leases = createSocketLeases(pool, nodeId, logger); if (!(await leases.acquire(ws.id, 7, 5))) refuse()
 */
export function createSocketLeases(pool: SQL, nodeId: string, logger: Logger, options: { ttlMs?: number; renewMs?: number } = {}): SocketLeases {
  const ttlMs = options.ttlMs ?? 30_000;
  const renewMs = options.renewMs ?? Math.floor(ttlMs / 3);
  const held = new Set<string>();
  const leaseId = (socketId: string) => `${nodeId}:${socketId}`;
  let timer: ReturnType<typeof setInterval> | null = null;

  const renew = async () => {
    if (held.size === 0) return;
    const now = Date.now();
    try {
      await pool.unsafe("UPDATE socket_leases SET expires_at = $1 WHERE node_id = $2", [now + ttlMs, nodeId]);
      // Rows of dead nodes whose players never came back: nobody else would delete them.
      await pool.unsafe("DELETE FROM socket_leases WHERE expires_at < $1", [now - ttlMs]);
    } catch (error) {
      logger.warn(
        { event: "socket_lease_renew_failed", err: error instanceof Error ? error.message : String(error) },
        "could not renew this node's socket leases",
      );
    }
  };

  return {
    async acquire(socketId, playerId, cap) {
      const now = Date.now();
      const id = leaseId(socketId);
      const admitted = await pool.begin(async (tx) => {
        await tx.unsafe("SELECT pg_advisory_xact_lock($1, $2)", [LEASE_LOCK_SPACE, playerId]);
        await tx.unsafe("DELETE FROM socket_leases WHERE player_id = $1 AND expires_at <= $2", [playerId, now]);
        const inserted = (await tx.unsafe(
          `INSERT INTO socket_leases (id, player_id, node_id, expires_at)
           SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM socket_leases WHERE player_id = $2) < $5
           ON CONFLICT (id) DO NOTHING RETURNING id`,
          [id, playerId, nodeId, now + ttlMs, cap],
        )) as unknown[];
        return inserted.length === 1;
      });
      if (admitted) held.add(id);
      return admitted;
    },
    async release(socketId) {
      const id = leaseId(socketId);
      if (!held.delete(id)) return;
      await pool.unsafe("DELETE FROM socket_leases WHERE id = $1", [id]).catch((error: unknown) => {
        // It expires on its own after ttlMs.
        logger.warn({ event: "socket_lease_release_failed", err: error instanceof Error ? error.message : String(error) }, "could not release a socket lease");
      });
    },
    start() {
      timer ??= setInterval(() => void renew(), renewMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      held.clear();
      await pool.unsafe("DELETE FROM socket_leases WHERE node_id = $1", [nodeId]).catch(() => undefined);
    },
  };
}

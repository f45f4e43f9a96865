/**
 * What N hoot nodes on one PostgreSQL primary share beyond the tables, built by deps.ts only when the database
 * is PostgreSQL (SQLite, one node, keeps the in-process versions):
 * - revocations: pg_notify after the commit, one LISTEN connection per node (revocations-pg.ts);
 * - failed-login limits: counters on the primary (login-limiter-pg.ts);
 * - the per-player socket cap: leases on the primary that a dead node's sockets stop holding (socket-leases.ts);
 * - jobs that run once per cluster per interval (the retention purge): `exclusive` (exclusive.ts).
 * `start()` subscribes and starts renewing before the node serves; `stop()` undoes both before the pool closes.
 */
import type { SQL } from "bun";
import type { LoginLimiter } from "../auth/rate-limit.ts";
import type { Logger } from "../log.ts";
import { type Exclusive, exclusive } from "./exclusive.ts";
import { createPgLoginLimiter } from "./login-limiter-pg.ts";
import { type ClusterRevocationBus, createPgRevocationBus } from "./revocations-pg.ts";
import { createSocketLeases, type SocketLeases } from "./socket-leases.ts";

export interface Cluster {
  /** This node's id (random per process). */
  nodeId: string;
  revocations: ClusterRevocationBus;
  loginLimiter: LoginLimiter;
  socketLeases: SocketLeases;
  /** Runs work on one node of the cluster at a time; the others skip it. */
  exclusive: Exclusive;
  /** Subscribes; resolves once PostgreSQL acknowledged. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The shared parts over the node's pool.
 * @example const cluster = createCluster(pool, logger, { loginFailuresPerMinute: 10 }); await cluster.start()
 */
export function createCluster(pool: SQL, logger: Logger, settings: { loginFailuresPerMinute: number }): Cluster {
  const revocations = createPgRevocationBus(pool, logger);
  const socketLeases = createSocketLeases(pool, revocations.nodeId, logger);
  return {
    nodeId: revocations.nodeId,
    revocations,
    loginLimiter: createPgLoginLimiter(pool, settings.loginFailuresPerMinute),
    socketLeases,
    exclusive: exclusive(pool),
    async start() {
      await revocations.start();
      socketLeases.start();
    },
    async stop() {
      await socketLeases.stop();
      await revocations.stop();
    },
  };
}

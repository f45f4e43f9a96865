/**
 * What N hoot nodes on one PostgreSQL primary share beyond the tables: revocations (pg_notify/LISTEN).
 * Built by deps.ts only when the database is PostgreSQL; SQLite (one node) keeps the in-process versions.
 * `start()` subscribes before the node serves; `stop()` unsubscribes before the pool closes.
 */
import type { SQL } from "bun";
import type { Logger } from "../log.ts";
import { createPgRevocationBus, type ClusterRevocationBus } from "./revocations-pg.ts";

export interface Cluster {
  revocations: ClusterRevocationBus;
  /** Subscribes; resolves once PostgreSQL acknowledged. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The shared parts over the node's pool.
 * @example const cluster = createCluster(pool, logger); await cluster.start()
 */
export function createCluster(pool: SQL, logger: Logger): Cluster {
  const revocations = createPgRevocationBus(pool, logger);
  return {
    revocations,
    start: () => revocations.start(),
    stop: () => revocations.stop(),
  };
}

/**
 * Notice board for credentials that just stopped working, so the interact socket can close the sockets they
 * opened at once (4403) instead of waiting for the next message. This is the in-process one (SQLite, one
 * node); on PostgreSQL every node shares one through pg_notify/LISTEN (src/cluster/revocations-pg.ts).
 */
export type Revocation = { kind: "player"; playerId: number } | { kind: "service-account"; serviceAccountId: number } | { kind: "user"; userId: number };

export interface RevocationBus {
  publish(revocation: Revocation): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (revocation: Revocation) => void): () => void;
  /**
   * `listener` runs whenever publications may have been missed (a cluster node's listening connection came
   * back after a drop): whoever holds credentials must re-check them all. Returns the unsubscribe function.
   */
  resubscribed(listener: () => void): () => void;
}

/**
 * A synchronous bus: listeners run before `publish` returns. A socket with no turn running closes then, before
 * the HTTP answer; one whose turn is still running is closed after that turn stops and saves its history,
 * which may be after the HTTP answer (the credential is refused on every new use either way).
 */
export function createRevocationBus(): RevocationBus {
  const listeners = new Set<(revocation: Revocation) => void>();
  return {
    publish(revocation) {
      for (const listener of listeners) listener(revocation);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // One process misses nothing.
    resubscribed: () => () => undefined,
  };
}

/**
 * In-process notice board for credentials that just stopped working, so the interact socket can close
 * the sockets they opened at once (4403) instead of waiting for the next message.
 */
export type Revocation =
  | { kind: "player"; playerId: number }
  | { kind: "service-account"; serviceAccountId: number }
  | { kind: "user"; userId: number };

export interface RevocationBus {
  publish(revocation: Revocation): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (revocation: Revocation) => void): () => void;
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
  };
}

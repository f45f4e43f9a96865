/**
 * Failed-login limiter: at most `limit` failures per bucket (a client address, or a key's or federated id's
 * lookup hash) in a fixed one-minute window. What a full bucket refuses is the caller's rule: a credential's
 * own bucket refuses every attempt with it until the window ends; an address's bucket refuses only attempts
 * whose credential fails (many clients may share one address behind a proxy, and one of them must not lock
 * the others out).
 */
export interface FailureLimiter {
  /** Seconds until `key` may try again, or 0. */
  retryAfter(key: string, now?: number): number;
  recordFailure(key: string, now?: number): void;
}

/**
 * The login limiter's face: the same two questions, answered at once (one node, in memory) or after a round
 * trip (several nodes, counters on PostgreSQL: src/cluster/login-limiter-pg.ts). Callers `await` both.
 */
export interface LoginLimiter {
  /** Seconds until `key` may try again, or 0. */
  retryAfter(key: string, now?: number): number | Promise<number>;
  recordFailure(key: string, now?: number): void | Promise<void>;
}

/** A limiter allowing `limit` failures per `windowMs` per key; memory stays bounded by pruning old windows. */
export function createFailureLimiter(limit: number, windowMs = 60_000, maxKeys = 100_000): FailureLimiter {
  const windows = new Map<string, { start: number; failures: number }>();
  const prune = (now: number) => {
    for (const [key, w] of windows) if (now - w.start >= windowMs) windows.delete(key);
  };
  return {
    retryAfter(key, now = Date.now()) {
      const w = windows.get(key);
      if (!w || now - w.start >= windowMs || w.failures < limit) return 0;
      return (w.start + windowMs - now) / 1000;
    },
    recordFailure(key, now = Date.now()) {
      const w = windows.get(key);
      if (!w || now - w.start >= windowMs) {
        if (windows.size >= maxKeys) prune(now);
        // Still full of live windows (an attack with many keys): drop the oldest rather than grow.
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
        windows.delete(key);
        windows.set(key, { start: now, failures: 1 });
      } else {
        w.failures++;
      }
    },
  };
}

/**
 * The failed-login limiter shared by every node: one row per bucket in `login_failures` on the primary, with
 * the same rule as the in-process limiter (auth/rate-limit.ts): at most `limit` failures in a window that
 * starts at the bucket's first failure and lasts `windowMs`.
 *
 * - counting is one atomic upsert (INSERT … ON CONFLICT DO UPDATE): two nodes counting at once both count,
 *   and a window that has ended starts again at the failure that finds it ended;
 * - asking is one primary-key read, on every login (the price of a cluster-wide limit: one round trip);
 * - rows of ended windows are deleted by the node that notices, at most once per window, so the table holds
 *   only buckets that failed in the last minute or two. A bucket is an address or a keyed hash, never a secret.
 * - times are each node's clock (keep them synchronised, as for token expiry).
 */
import type { SQL } from "bun";
import type { LoginLimiter } from "../auth/rate-limit.ts";

/**
 * A limiter over the pool.
 * @example const limiter = createPgLoginLimiter(pool, 10); await limiter.recordFailure("ip:10.0.0.7")
 */
export function createPgLoginLimiter(pool: SQL, limit: number, windowMs = 60_000): LoginLimiter {
  let lastPrune = 0;
  const prune = (now: number) => {
    if (now - lastPrune < windowMs) return;
    lastPrune = now;
    void pool.unsafe("DELETE FROM login_failures WHERE window_start <= $1", [now - windowMs]).catch(() => undefined);
  };
  return {
    async retryAfter(key, now = Date.now()) {
      const rows = (await pool.unsafe("SELECT window_start, failures FROM login_failures WHERE bucket = $1", [key])) as {
        window_start: string | number;
        failures: number;
      }[];
      const row = rows[0];
      if (!row) return 0;
      const start = Number(row.window_start);
      if (now - start >= windowMs || row.failures < limit) return 0;
      return (start + windowMs - now) / 1000;
    },
    async recordFailure(key, now = Date.now()) {
      await pool.unsafe(
        `INSERT INTO login_failures (bucket, window_start, failures) VALUES ($1, $2, 1)
         ON CONFLICT (bucket) DO UPDATE SET
           failures = CASE WHEN login_failures.window_start <= $2 - $3 THEN 1 ELSE login_failures.failures + 1 END,
           window_start = CASE WHEN login_failures.window_start <= $2 - $3 THEN $2 ELSE login_failures.window_start END`,
        [key, now, windowMs],
      );
      prune(now);
    },
  };
}

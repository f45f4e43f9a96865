/**
 * Jobs that run once per cluster per interval (the retention purge). A node runs one when it gets the job's
 * session-level advisory lock (pg_try_advisory_lock, which never waits: a node that finds it taken skips this
 * round) and the job's last run, recorded in `hoot_meta` under the same lock, is at least `everyMs` ago. So
 * N nodes sweeping every hour purge once an hour between them, never two at once. If the holder dies,
 * PostgreSQL ends its session and the lock with it.
 */
import type { SQL } from "bun";

// pg_try_advisory_lock(int, int): "hoot" in ASCII, then the job's number (1 is the migrations' lock).
export const JOB_LOCK_SPACE = 0x686f6f74;
export const RETENTION_JOB = 3;

/** Runs `work` when this node holds job `job` and it last ran `everyMs` or more ago; its result, or null when skipped. */
export type Exclusive = <T>(job: number, everyMs: number, work: () => Promise<T>) => Promise<T | null>;

/**
 * The runner over a pool.
 * @example const removed = await exclusive(pool)(RETENTION_JOB, 3_600_000, () => purgeExpired(deps, 30))
 */
export function exclusive(pool: SQL): Exclusive {
  return async (job, everyMs, work) => {
    const connection = await pool.reserve();
    try {
      const [row] = (await connection.unsafe("SELECT pg_try_advisory_lock($1, $2) AS got", [JOB_LOCK_SPACE, job])) as { got: boolean }[];
      if (!row?.got) return null;
      try {
        const name = `job_last_run:${job}`;
        const [last] = (await connection.unsafe("SELECT value FROM hoot_meta WHERE name = $1", [name])) as { value: string }[];
        const now = Date.now();
        // Slack of a tenth: nodes started a little apart still share one round.
        if (last && now - Number(last.value) < everyMs * 0.9) return null;
        const result = await work();
        await connection.unsafe("INSERT INTO hoot_meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value", [
          name,
          String(now),
        ]);
        return result;
      } finally {
        await connection.unsafe("SELECT pg_advisory_unlock($1, $2)", [JOB_LOCK_SPACE, job]);
      }
    } finally {
      connection.release();
    }
  };
}

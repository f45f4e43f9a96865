/**
 * What a database error means, whichever database raised it. drizzle wraps a failed query in a
 * DrizzleQueryError whose message repeats the query and its parameters; the driver's own error is its
 * `cause`, so these look there (and callers log the cause, never the wrapper's message).
 *   SQLite (bun:sqlite): `code` such as "SQLITE_BUSY", "SQLITE_CONSTRAINT_UNIQUE".
 *   PostgreSQL (Bun.SQL): a PostgresError whose `errno` is the SQLSTATE ("23505"), `code` Bun's own.
 */
import { DrizzleQueryError } from "drizzle-orm";

/** The driver's error under drizzle's wrapper (or the error itself). */
export function rootCause(error: unknown): unknown {
  let current = error;
  while (current instanceof DrizzleQueryError && current.cause !== undefined && current.cause !== null) current = current.cause;
  return current;
}

function codes(error: unknown): { code: string; sqlState: string } {
  const cause = rootCause(error) as { code?: unknown; errno?: unknown } | null;
  return {
    code: typeof cause?.code === "string" ? cause.code : "",
    sqlState: typeof cause?.errno === "string" ? cause.errno : "",
  };
}

// lock_not_available (lock_timeout), serialization_failure, deadlock_detected: trying again later can succeed.
const PG_BUSY = new Set(["55P03", "40001", "40P01"]);

/** SQLITE_BUSY / SQLITE_LOCKED, or a PostgreSQL lock timeout, serialization failure or deadlock. */
export function isBusyError(error: unknown): boolean {
  const { code, sqlState } = codes(error);
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED") || PG_BUSY.has(sqlState);
}

/** A unique constraint refused the write (SQLite's UNIQUE or PRIMARY KEY, PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const { code, sqlState } = codes(error);
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || sqlState === "23505") return true;
  const cause = rootCause(error);
  return cause instanceof Error && /UNIQUE constraint failed/.test(cause.message);
}

/** The PostgreSQL server cannot be reached or went away (a 503, not a 500). */
export function isConnectionError(error: unknown): boolean {
  const { code, sqlState } = codes(error);
  return (
    /^ERR_POSTGRES_(CONNECTION_CLOSED|CONNECTION_TIMEOUT|CONNECTION_REFUSED|IDLE_TIMEOUT|LIFETIME_TIMEOUT)/.test(code) ||
    sqlState.startsWith("08") ||
    sqlState === "57P01" ||
    sqlState === "57P03"
  );
}

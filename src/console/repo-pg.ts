/** The console repository (repo.ts) on PostgreSQL. */
import { and, desc, eq, lt, ne, notInArray, sql } from "drizzle-orm";
import { type PgDb, query } from "../db/pg/client.ts";
import { consoleLogins, consoleSessions } from "../db/pg/schema.ts";
import type { ConsoleRepo } from "./repo.ts";

/** The console's tables on PostgreSQL. */
export function pgConsoleRepo(db: PgDb): ConsoleRepo {
  const one = async <T>(rows: Promise<T[]>): Promise<T | null> => (await rows)[0] ?? null;
  const run = async (statement: Promise<unknown>): Promise<void> => void (await statement);
  return {
    insertSession: async (values) => (await db.insert(consoleSessions).values(values).returning())[0]!,
    findSessionByHash: (tokenHash) => one(db.select().from(consoleSessions).where(eq(consoleSessions.tokenHash, tokenHash))),
    touchSession: (id, at) => run(db.update(consoleSessions).set({ lastSeenAt: at }).where(eq(consoleSessions.id, id))),
    setSessionTeam: (id, teamId) => run(db.update(consoleSessions).set({ teamId }).where(eq(consoleSessions.id, id))),
    setSessionKeyVersion: (id, keyVersion) => run(db.update(consoleSessions).set({ keyVersion }).where(eq(consoleSessions.id, id))),
    deleteSession: (id) => run(db.delete(consoleSessions).where(eq(consoleSessions.id, id))),
    deleteOtherSessions: (userId, keepId) => run(db.delete(consoleSessions).where(and(eq(consoleSessions.userId, userId), ne(consoleSessions.id, keepId)))),
    keepNewestSessions: (userId, keep) =>
      run(
        db
          .delete(consoleSessions)
          .where(
            and(
              eq(consoleSessions.userId, userId),
              notInArray(
                consoleSessions.id,
                db
                  .select({ id: consoleSessions.id })
                  .from(consoleSessions)
                  .where(eq(consoleSessions.userId, userId))
                  .orderBy(desc(consoleSessions.id))
                  .limit(keep),
              ),
            ),
          ),
      ),
    deleteStaleSessions: (now, idleBefore) =>
      run(db.delete(consoleSessions).where(sql`${consoleSessions.expiresAt} <= ${now} OR ${consoleSessions.lastSeenAt} < ${idleBefore}`)),

    insertLogin: (values) => run(db.insert(consoleLogins).values(values)),
    // DELETE … RETURNING: of two callbacks racing with one state, exactly one gets the row.
    takeLogin: (stateHash) => one(db.delete(consoleLogins).where(eq(consoleLogins.stateHash, stateHash)).returning()),
    countLogins: async (purpose) => (await query<{ n: number }>(db, "SELECT count(*)::int AS n FROM console_logins WHERE purpose = $1", [purpose]))[0]?.n ?? 0,
    deleteExpiredLogins: (now) => run(db.delete(consoleLogins).where(lt(consoleLogins.expiresAt, now))),
  };
}

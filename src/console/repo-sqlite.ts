/** The console repository (repo.ts) on SQLite. */
import { and, desc, eq, lt, ne, notInArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { consoleLogins, consoleSessions } from "../db/schema.ts";
import type { Synchronous } from "../db/store.ts";
import type { ConsoleRepo } from "./repo.ts";

/** The console's tables on SQLite. */
export function sqliteConsoleRepo(db: Db): Synchronous<ConsoleRepo> {
  return {
    insertSession: (values) => db.insert(consoleSessions).values(values).returning().get(),
    findSessionByHash: (tokenHash) => sessionByHash(db).get({ tokenHash }) ?? null,
    touchSession: (id, at) => void db.update(consoleSessions).set({ lastSeenAt: at }).where(eq(consoleSessions.id, id)).run(),
    setSessionTeam: (id, teamId) => void db.update(consoleSessions).set({ teamId }).where(eq(consoleSessions.id, id)).run(),
    setSessionKeyVersion: (id, keyVersion) => void db.update(consoleSessions).set({ keyVersion }).where(eq(consoleSessions.id, id)).run(),
    deleteSession: (id) => void db.delete(consoleSessions).where(eq(consoleSessions.id, id)).run(),
    deleteOtherSessions: (userId, keepId) =>
      void db
        .delete(consoleSessions)
        .where(and(eq(consoleSessions.userId, userId), ne(consoleSessions.id, keepId)))
        .run(),
    keepNewestSessions: (userId, keep) =>
      void db
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
        )
        .run(),
    deleteStaleSessions: (now, idleBefore) =>
      void db.delete(consoleSessions).where(sql`${consoleSessions.expiresAt} <= ${now} OR ${consoleSessions.lastSeenAt} < ${idleBefore}`).run(),

    insertLogin: (values) => void db.insert(consoleLogins).values(values).run(),
    takeLogin: (stateHash) => db.delete(consoleLogins).where(eq(consoleLogins.stateHash, stateHash)).returning().get() ?? null,
    countLogins: (purpose) => db.$client.query<{ n: number }, [string]>("SELECT count(*) AS n FROM console_logins WHERE purpose = ?").get(purpose)?.n ?? 0,
    deleteExpiredLogins: (now) => void db.delete(consoleLogins).where(lt(consoleLogins.expiresAt, now)).run(),
  };
}

const sessionByHash = prepared((db) =>
  db
    .select()
    .from(consoleSessions)
    .where(eq(consoleSessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare(),
);

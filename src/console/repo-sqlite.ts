/** The console repository (repo.ts) on SQLite. */
import { and, asc, eq, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { consoleInvitations, consoleLogins, consoleSessions, teams } from "../db/schema.ts";
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
    deleteStaleSessions: (now, idleBefore) =>
      void db
        .delete(consoleSessions)
        .where(sql`${consoleSessions.expiresAt} <= ${now} OR ${consoleSessions.lastSeenAt} < ${idleBefore}`)
        .run(),

    insertLogin: (values) => void db.insert(consoleLogins).values(values).run(),
    takeLogin: (stateHash) => db.delete(consoleLogins).where(eq(consoleLogins.stateHash, stateHash)).returning().get() ?? null,
    countLogins: () => db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM console_logins").get()?.n ?? 0,
    deleteExpiredLogins: (now) => void db.delete(consoleLogins).where(lt(consoleLogins.expiresAt, now)).run(),

    insertInvitation: (values) => db.insert(consoleInvitations).values(values).onConflictDoNothing().returning().get() ?? null,
    listInvitations: (teamId) => db.select().from(consoleInvitations).where(eq(consoleInvitations.teamId, teamId)).orderBy(asc(consoleInvitations.id)).all(),
    invitationsFor: (email) =>
      db
        .select({ id: consoleInvitations.id, teamId: consoleInvitations.teamId, teamName: teams.name })
        .from(consoleInvitations)
        .innerJoin(teams, eq(teams.id, consoleInvitations.teamId))
        .where(eq(consoleInvitations.email, email))
        .orderBy(asc(consoleInvitations.id))
        .all(),
    deleteInvitation: (teamId, id) =>
      db
        .delete(consoleInvitations)
        .where(and(eq(consoleInvitations.id, id), eq(consoleInvitations.teamId, teamId)))
        .returning({ id: consoleInvitations.id })
        .get() !== undefined,
    deleteInvitationsFor: (email) => void db.delete(consoleInvitations).where(eq(consoleInvitations.email, email)).run(),
  };
}

const sessionByHash = prepared((db) =>
  db
    .select()
    .from(consoleSessions)
    .where(eq(consoleSessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare(),
);

/** Every query on the console's own tables: sessions, pending single sign-ons, invitations. */
import { and, asc, eq, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { consoleInvitations, consoleLogins, consoleSessions, teams, type ConsoleInvitation, type ConsoleLogin, type ConsoleSession } from "../db/schema.ts";

// --- sessions ---

/** Inserts a session row. */
export function insertSession(db: Db, values: Omit<ConsoleSession, "id" | "createdAt">): ConsoleSession {
  return db.insert(consoleSessions).values(values).returning().get();
}

/** The session whose token has this keyed hash, or null (every console request). */
export function findSessionByHash(db: Db, tokenHash: string): ConsoleSession | null {
  return sessionByHash(db).get({ tokenHash }) ?? null;
}

const sessionByHash = prepared((db) =>
  db
    .select()
    .from(consoleSessions)
    .where(eq(consoleSessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare(),
);

/** Records activity on a session (for the idle lifetime). */
export function touchSession(db: Db, id: number, at: number): void {
  db.update(consoleSessions).set({ lastSeenAt: at }).where(eq(consoleSessions.id, id)).run();
}

/** Moves a session to another team. */
export function setSessionTeam(db: Db, id: number, teamId: number): void {
  db.update(consoleSessions).set({ teamId }).where(eq(consoleSessions.id, id)).run();
}

/** Stamps a session with the user's new key version (the session that rotated the key lives on). */
export function setSessionKeyVersion(db: Db, id: number, keyVersion: number): void {
  db.update(consoleSessions).set({ keyVersion }).where(eq(consoleSessions.id, id)).run();
}

/** Deletes one session. */
export function deleteSession(db: Db, id: number): void {
  db.delete(consoleSessions).where(eq(consoleSessions.id, id)).run();
}

/** Deletes every session of a user except `keepId`. */
export function deleteOtherSessions(db: Db, userId: number, keepId: number): void {
  db.delete(consoleSessions)
    .where(and(eq(consoleSessions.userId, userId), ne(consoleSessions.id, keepId)))
    .run();
}

/** Deletes sessions past their absolute end or idle since before `idleBefore`. */
export function deleteStaleSessions(db: Db, now: number, idleBefore: number): void {
  db.delete(consoleSessions)
    .where(sql`${consoleSessions.expiresAt} <= ${now} OR ${consoleSessions.lastSeenAt} < ${idleBefore}`)
    .run();
}

// --- pending single sign-ons ---

/** Records a sign-in that was sent to the identity provider. */
export function insertLogin(db: Db, values: Omit<ConsoleLogin, "createdAt">): void {
  db.insert(consoleLogins).values(values).run();
}

/** Removes and returns the pending sign-in with this state hash (single use), or null. */
export function takeLogin(db: Db, stateHash: string): ConsoleLogin | null {
  return db.delete(consoleLogins).where(eq(consoleLogins.stateHash, stateHash)).returning().get() ?? null;
}

/** How many sign-ins of one flow (`console` or `sdk`) are in flight. */
export function countLogins(db: Db, purpose: ConsoleLogin["purpose"]): number {
  return db.$client.query<{ n: number }, [string]>("SELECT count(*) AS n FROM console_logins WHERE purpose = ?").get(purpose)?.n ?? 0;
}

/** Deletes pending sign-ins that expired. */
export function deleteExpiredLogins(db: Db, now: number): void {
  db.delete(consoleLogins).where(lt(consoleLogins.expiresAt, now)).run();
}

// --- invitations ---

/** Invites `email` to a team; false when it was already invited. */
export function insertInvitation(db: Db, values: { teamId: number; email: string; invitedBy: number }): ConsoleInvitation | null {
  return db.insert(consoleInvitations).values(values).onConflictDoNothing().returning().get() ?? null;
}

/** A team's pending invitations, oldest first. */
export function listInvitations(db: Db, teamId: number): ConsoleInvitation[] {
  return db.select().from(consoleInvitations).where(eq(consoleInvitations.teamId, teamId)).orderBy(asc(consoleInvitations.id)).all();
}

/** Every pending invitation of an e-mail with its team's name, oldest first. */
export function invitationsFor(db: Db, email: string): { id: number; teamId: number; teamName: string }[] {
  return db
    .select({ id: consoleInvitations.id, teamId: consoleInvitations.teamId, teamName: teams.name })
    .from(consoleInvitations)
    .innerJoin(teams, eq(teams.id, consoleInvitations.teamId))
    .where(eq(consoleInvitations.email, email))
    .orderBy(asc(consoleInvitations.id))
    .all();
}

/** Deletes the team's invitation `id`; false when there was none. */
export function deleteInvitation(db: Db, teamId: number, id: number): boolean {
  return (
    db
      .delete(consoleInvitations)
      .where(and(eq(consoleInvitations.id, id), eq(consoleInvitations.teamId, teamId)))
      .returning({ id: consoleInvitations.id })
      .get() !== undefined
  );
}

/** Deletes every invitation of an e-mail (once accepted). */
export function deleteInvitationsFor(db: Db, email: string): void {
  db.delete(consoleInvitations).where(eq(consoleInvitations.email, email)).run();
}

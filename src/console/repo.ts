/** Every query on the console's own tables: sessions and pending single sign-ons (invitations: src/invitations). */
import { and, eq, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { consoleLogins, consoleSessions, type ConsoleLogin, type ConsoleSession } from "../db/schema.ts";

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

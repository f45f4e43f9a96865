/**
 * Every query on the console's own tables (sessions, pending single sign-ons), as one async interface with a
 * SQLite (repo-sqlite.ts) and a PostgreSQL (repo-pg.ts) implementation; test/db/contract/console.test.ts holds
 * both to it. Invitations have their own repository (src/invitations).
 */
import type { ConsoleLogin, ConsoleSession } from "../db/schema.ts";

export interface ConsoleRepo {
  // --- sessions ---
  /** Inserts a session row. */
  insertSession(values: Omit<ConsoleSession, "id" | "createdAt">): Promise<ConsoleSession>;
  /** The session whose token has this keyed hash, or null (every console request). */
  findSessionByHash(tokenHash: string): Promise<ConsoleSession | null>;
  /** Records activity on a session (for the idle lifetime). */
  touchSession(id: number, at: number): Promise<void>;
  /** Moves a session to another team. */
  setSessionTeam(id: number, teamId: number): Promise<void>;
  /** Stamps a session with the user's new key version (the session that rotated the key lives on). */
  setSessionKeyVersion(id: number, keyVersion: number): Promise<void>;
  /** Deletes one session. */
  deleteSession(id: number): Promise<void>;
  /** Deletes every session of a user except `keepId`. */
  deleteOtherSessions(userId: number, keepId: number): Promise<void>;
  /** Deletes the user's oldest sessions so that at most `keep` remain (a new sign-in past the cap signs the oldest out). */
  keepNewestSessions(userId: number, keep: number): Promise<void>;
  /** Deletes sessions past their absolute end or idle since before `idleBefore`. */
  deleteStaleSessions(now: number, idleBefore: number): Promise<void>;

  // --- pending single sign-ons ---
  /** Records a sign-in that was sent to the identity provider. */
  insertLogin(values: Omit<ConsoleLogin, "createdAt">): Promise<void>;
  /** Removes and returns the pending sign-in with this state hash (single use, even when two callbacks race), or null. */
  takeLogin(stateHash: string): Promise<ConsoleLogin | null>;
  /** How many sign-ins of one flow (`console` or `sdk`) are in flight. */
  countLogins(purpose: ConsoleLogin["purpose"]): Promise<number>;
  /** Deletes pending sign-ins that expired. */
  deleteExpiredLogins(now: number): Promise<void>;
}

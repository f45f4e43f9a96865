/** Every query on team invitations (`console_invitations`): one row per team and e-mail, until accepted or withdrawn. */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { consoleInvitations, teams, type ConsoleInvitation } from "../db/schema.ts";

/** Invites `email` to a team; null when it was already invited. */
export function insertInvitation(db: Db, values: { teamId: number; email: string; invitedBy: number | null }): ConsoleInvitation | null {
  return db.insert(consoleInvitations).values(values).onConflictDoNothing().returning().get() ?? null;
}

/** A team's pending invitations, oldest first. */
export function listInvitations(db: Db, teamId: number): ConsoleInvitation[] {
  return db.select().from(consoleInvitations).where(eq(consoleInvitations.teamId, teamId)).orderBy(asc(consoleInvitations.id)).all();
}

/** Every pending invitation of an e-mail with its team's name, oldest first. */
export function invitationsFor(db: Db, email: string): { id: number; teamId: number; teamName: string; createdAt: number }[] {
  return db
    .select({ id: consoleInvitations.id, teamId: consoleInvitations.teamId, teamName: teams.name, createdAt: consoleInvitations.createdAt })
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

/** Deletes and returns the invitation `id` of `email` (accepting or declining it), or null. */
export function takeInvitationFor(db: Db, email: string, id: number): ConsoleInvitation | null {
  return (
    db
      .delete(consoleInvitations)
      .where(and(eq(consoleInvitations.id, id), eq(consoleInvitations.email, email)))
      .returning()
      .get() ?? null
  );
}

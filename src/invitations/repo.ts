/**
 * Every query on team invitations (`console_invitations`: one row per team and e-mail, until accepted,
 * declined or withdrawn), as one async interface with a SQLite (repo-sqlite.ts) and a PostgreSQL (repo-pg.ts)
 * implementation; test/db/contract/invitations.test.ts holds both to it.
 */
import type { ConsoleInvitation } from "../db/schema.ts";

export interface InvitationRepo {
  /** Invites `email` (already normalized) to a team; null when it was already invited (the unique index decides, even in a race). */
  insert(values: { teamId: number; email: string; invitedBy: number | null }): Promise<ConsoleInvitation | null>;
  /** A team's pending invitations, oldest first. */
  listForTeam(teamId: number): Promise<ConsoleInvitation[]>;
  /** Every pending invitation of an e-mail with its team's name, oldest first. */
  listForEmail(email: string): Promise<{ id: number; teamId: number; teamName: string; createdAt: number }[]>;
  /** Deletes the team's invitation `id`; false when there was none. */
  delete(teamId: number, id: number): Promise<boolean>;
  /** Deletes and returns the invitation `id` of `email` (accepting or declining it; single use even when two requests race), or null. */
  takeFor(email: string, id: number): Promise<ConsoleInvitation | null>;
}

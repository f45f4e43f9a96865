/** The invitation repository (repo.ts) on PostgreSQL. */
import { and, asc, eq } from "drizzle-orm";
import type { PgDb } from "../db/pg/client.ts";
import { consoleInvitations, teams } from "../db/pg/schema.ts";
import type { InvitationRepo } from "./repo.ts";

/** Team invitations on PostgreSQL. */
export function pgInvitationRepo(db: PgDb): InvitationRepo {
  return {
    // ON CONFLICT DO NOTHING: of two nodes inviting one e-mail at once, one inserts and the other gets null.
    insert: async (values) => (await db.insert(consoleInvitations).values(values).onConflictDoNothing().returning())[0] ?? null,
    listForTeam: (teamId) => db.select().from(consoleInvitations).where(eq(consoleInvitations.teamId, teamId)).orderBy(asc(consoleInvitations.id)),
    listForEmail: (email) =>
      db
        .select({ id: consoleInvitations.id, teamId: consoleInvitations.teamId, teamName: teams.name, createdAt: consoleInvitations.createdAt })
        .from(consoleInvitations)
        .innerJoin(teams, eq(teams.id, consoleInvitations.teamId))
        .where(eq(consoleInvitations.email, email))
        .orderBy(asc(consoleInvitations.id)),
    delete: async (teamId, id) =>
      (
        await db
          .delete(consoleInvitations)
          .where(and(eq(consoleInvitations.id, id), eq(consoleInvitations.teamId, teamId)))
          .returning({ id: consoleInvitations.id })
      ).length > 0,
    // DELETE … RETURNING: of two requests accepting one invitation at once, exactly one gets the row.
    takeFor: async (email, id) =>
      (
        await db
          .delete(consoleInvitations)
          .where(and(eq(consoleInvitations.id, id), eq(consoleInvitations.email, email)))
          .returning()
      )[0] ?? null,
  };
}

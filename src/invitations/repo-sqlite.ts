/** The invitation repository (repo.ts) on SQLite. */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { consoleInvitations, teams } from "../db/schema.ts";
import type { Synchronous } from "../db/store.ts";
import type { InvitationRepo } from "./repo.ts";

/** Team invitations on SQLite. */
export function sqliteInvitationRepo(db: Db): Synchronous<InvitationRepo> {
  return {
    insert: (values) => db.insert(consoleInvitations).values(values).onConflictDoNothing().returning().get() ?? null,
    listForTeam: (teamId) => db.select().from(consoleInvitations).where(eq(consoleInvitations.teamId, teamId)).orderBy(asc(consoleInvitations.id)).all(),
    listForEmail: (email) =>
      db
        .select({ id: consoleInvitations.id, teamId: consoleInvitations.teamId, teamName: teams.name, createdAt: consoleInvitations.createdAt })
        .from(consoleInvitations)
        .innerJoin(teams, eq(teams.id, consoleInvitations.teamId))
        .where(eq(consoleInvitations.email, email))
        .orderBy(asc(consoleInvitations.id))
        .all(),
    delete: (teamId, id) =>
      db
        .delete(consoleInvitations)
        .where(and(eq(consoleInvitations.id, id), eq(consoleInvitations.teamId, teamId)))
        .returning({ id: consoleInvitations.id })
        .get() !== undefined,
    takeFor: (email, id) =>
      db
        .delete(consoleInvitations)
        .where(and(eq(consoleInvitations.id, id), eq(consoleInvitations.email, email)))
        .returning()
        .get() ?? null,
  };
}

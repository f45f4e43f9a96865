/** The teams repository (repo.ts) on PostgreSQL. */
import { eq } from "drizzle-orm";
import { execute, type PgDb, query } from "../db/pg/client.ts";
import { teamMembers, teams } from "../db/pg/schema.ts";
import type { TeamRepo } from "./repo.ts";

/** Teams and membership on PostgreSQL. */
export function pgTeamRepo(db: PgDb): TeamRepo {
  const one = async <T>(rows: Promise<T[]>): Promise<T | null> => (await rows)[0] ?? null;
  return {
    any: async () => (await db.select({ id: teams.id }).from(teams).limit(1)).length > 0,
    findByName: (name) => one(db.select().from(teams).where(eq(teams.name, name))),
    find: (id) => one(db.select().from(teams).where(eq(teams.id, id))),
    // FOR UPDATE conflicts with the KEY SHARE lock an insert referencing the team takes: no player or service
    // account can join a team while it is being deleted.
    lock: (id) => one(db.select().from(teams).where(eq(teams.id, id)).for("update")),
    insert: async (name) => (await db.insert(teams).values({ name }).returning())[0]!,
    list: () => db.select().from(teams).orderBy(teams.id),
    rename: (id, name) => one(db.update(teams).set({ name }).where(eq(teams.id, id)).returning()),
    setRequireConsent: (id, value) => one(db.update(teams).set({ requireConsent: value }).where(eq(teams.id, id)).returning()),
    async delete(id) {
      await db.delete(teamMembers).where(eq(teamMembers.teamId, id));
      await db.delete(teams).where(eq(teams.id, id));
    },
    teamsOfUser: (userId) =>
      query<{ id: number; name: string }>(
        db,
        "SELECT t.id, t.name FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = $1 ORDER BY m.team_id",
        [userId],
      ),
    isMember: async (userId, teamId) => (await query(db, "SELECT 1 FROM team_members WHERE user_id = $1 AND team_id = $2", [userId, teamId])).length > 0,
    memberships: () =>
      db
        .select({ userId: teamMembers.userId, id: teams.id, name: teams.name })
        .from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId))
        .orderBy(teamMembers.userId, teamMembers.teamId),
    async addMember(teamId, userId) {
      await db.insert(teamMembers).values({ teamId, userId }).onConflictDoNothing();
    },
    removeMember: async (teamId, userId) => (await execute(db, "DELETE FROM team_members WHERE team_id = $1 AND user_id = $2", [teamId, userId])) > 0,
  };
}

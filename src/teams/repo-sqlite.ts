/** The teams repository (repo.ts) on SQLite: synchronous inside, prepared statements on the login path. */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { teamMembers, teams } from "../db/schema.ts";
import type { Synchronous } from "../db/store.ts";
import type { TeamRepo } from "./repo.ts";

/** Teams and membership on SQLite. */
export function sqliteTeamRepo(db: Db): Synchronous<TeamRepo> {
  const find = (id: number) => db.select().from(teams).where(eq(teams.id, id)).get() ?? null;
  return {
    any: () => db.select({ id: teams.id }).from(teams).limit(1).get() !== undefined,
    findByName: (name) => teamByName(db).get({ name }) ?? null,
    find,
    // A SQLite transaction (BEGIN IMMEDIATE) already keeps every other writer out.
    lock: find,
    insert: (name) => db.insert(teams).values({ name }).returning().get(),
    list: () => db.select().from(teams).orderBy(teams.id).all(),
    rename: (id, name) => db.update(teams).set({ name }).where(eq(teams.id, id)).returning().get() ?? null,
    setRequireConsent: (id, value) => db.update(teams).set({ requireConsent: value }).where(eq(teams.id, id)).returning().get() ?? null,
    delete: (id) => {
      db.delete(teamMembers).where(eq(teamMembers.teamId, id)).run();
      db.delete(teams).where(eq(teams.id, id)).run();
    },
    teamsOfUser: (userId) => teamsOfUser(db).all({ userId }),
    isMember: (userId, teamId) => membership(db).get({ userId, teamId }) !== undefined,
    memberships: () =>
      db
        .select({ userId: teamMembers.userId, id: teams.id, name: teams.name })
        .from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId))
        .orderBy(teamMembers.userId, teamMembers.teamId)
        .all(),
    addMember: (teamId, userId) => void db.insert(teamMembers).values({ teamId, userId }).onConflictDoNothing().run(),
    removeMember: (teamId, userId) => removeMembership(db).run({ teamId, userId }).changes > 0,
  };
}

const removeMembership = prepared((db) =>
  db.$client.query<never, { teamId: number; userId: number }>("DELETE FROM team_members WHERE team_id = $teamId AND user_id = $userId"),
);

const teamByName = prepared((db) =>
  db
    .select()
    .from(teams)
    .where(eq(teams.name, sql.placeholder("name")))
    .prepare(),
);

const teamsOfUser = prepared((db) =>
  db
    .select({ id: teams.id, name: teams.name })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, sql.placeholder("userId")))
    .orderBy(teamMembers.teamId)
    .prepare(),
);

const membership = prepared((db) =>
  db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.userId, sql.placeholder("userId")), eq(teamMembers.teamId, sql.placeholder("teamId"))))
    .prepare(),
);

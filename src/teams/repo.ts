/** Every query about teams and membership. */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { teamMembers, teams, type Team } from "../db/schema.ts";
import type { TeamLookup } from "../auth/index.ts";

/** What auth may ask about teams and membership (see auth/lookups.ts). */
export function teamLookup(db: Db): TeamLookup {
  return {
    teamsOf: (userId) => listTeamsOfUser(db, userId),
    byName: (name) => findTeamByName(db, name),
    isMember: (userId, teamId) => isMember(db, userId, teamId),
  };
}

/** True when at least one team exists (the dev bootstrap runs only on an empty database). */
export function anyTeamExists(db: Db): boolean {
  return db.select({ id: teams.id }).from(teams).limit(1).get() !== undefined;
}

/** The team named `name`, or null. */
export function findTeamByName(db: Db, name: string): Team | null {
  return teamByName(db).get({ name }) ?? null;
}

/** Inserts a team; throws on a duplicate name (the caller checks first inside a transaction). */
export function insertTeam(db: Db, name: string): Team {
  return db.insert(teams).values({ name }).returning().get();
}

/** Teams `userId` belongs to, oldest first. */
export function listTeamsOfUser(db: Db, userId: number): Pick<Team, "id" | "name">[] {
  return teamsOfUser(db).all({ userId });
}

/** True when `userId` is a member of `teamId`. */
export function isMember(db: Db, userId: number, teamId: number): boolean {
  return membership(db).get({ userId, teamId }) !== undefined;
}

/** Every team, oldest first. */
export function listTeams(db: Db): Team[] {
  return db.select().from(teams).orderBy(teams.id).all();
}

/** The team with `id`, or null. */
export function findTeam(db: Db, id: number): Team | null {
  return db.select().from(teams).where(eq(teams.id, id)).get() ?? null;
}

/** Renames a team; null when absent (the caller checks the new name is free inside a transaction). */
export function updateTeamName(db: Db, id: number, name: string): Team | null {
  return db.update(teams).set({ name }).where(eq(teams.id, id)).returning().get() ?? null;
}

/** Deletes the team row and its memberships (explicitly, as well as ON DELETE CASCADE). */
export function deleteTeamRow(db: Db, id: number): void {
  db.delete(teamMembers).where(eq(teamMembers.teamId, id)).run();
  db.delete(teams).where(eq(teams.id, id)).run();
}

/** Every membership with its team's name, by user then team (for listings of many users). */
export function listMemberships(db: Db): { userId: number; id: number; name: string }[] {
  return db
    .select({ userId: teamMembers.userId, id: teams.id, name: teams.name })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .orderBy(teamMembers.userId, teamMembers.teamId)
    .all();
}

/** Removes `userId` from `teamId`; false when they were not a member. */
export function removeMember(db: Db, teamId: number, userId: number): boolean {
  return removeMembership(db).run({ teamId, userId }).changes > 0;
}

/** Adds `userId` to `teamId`; a no-op when already a member. */
export function addMember(db: Db, teamId: number, userId: number): void {
  db.insert(teamMembers).values({ teamId, userId }).onConflictDoNothing().run();
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

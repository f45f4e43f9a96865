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

/** Adds `userId` to `teamId`; a no-op when already a member. */
export function addMember(db: Db, teamId: number, userId: number): void {
  db.insert(teamMembers).values({ teamId, userId }).onConflictDoNothing().run();
}

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

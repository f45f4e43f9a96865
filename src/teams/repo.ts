/**
 * Every query about teams and membership, as one async interface with a SQLite (repo-sqlite.ts) and a
 * PostgreSQL (repo-pg.ts) implementation; test/db/contract/teams.test.ts holds both to it.
 */

import type { TeamLookup } from "../auth/index.ts";
import type { Team } from "../db/schema.ts";

export interface TeamRepo {
  /** True when at least one team exists (the dev bootstrap runs only on an empty database). */
  any(): Promise<boolean>;
  /** The team named `name`, or null. */
  findByName(name: string): Promise<Team | null>;
  /** The team with `id`, or null. */
  find(id: number): Promise<Team | null>;
  /**
   * The team with `id`, locked until the transaction ends (PostgreSQL: FOR UPDATE, so players or service
   * accounts cannot be added to it meanwhile; SQLite's transactions hold the whole database already), or null.
   */
  lock(id: number): Promise<Team | null>;
  /** Inserts a team; the unique name index refuses a duplicate. */
  insert(name: string): Promise<Team>;
  /** Every team, oldest first. */
  list(): Promise<Team[]>;
  /** Renames a team; null when absent. */
  rename(id: number, name: string): Promise<Team | null>;
  /** Turns the team's `require_consent` on or off; null when absent. */
  setRequireConsent(id: number, value: boolean): Promise<Team | null>;
  /** Deletes the team row and its memberships (explicitly, as well as ON DELETE CASCADE). */
  delete(id: number): Promise<void>;
  /** Teams `userId` belongs to, in team order. */
  teamsOfUser(userId: number): Promise<Pick<Team, "id" | "name">[]>;
  /** True when `userId` is a member of `teamId`. */
  isMember(userId: number, teamId: number): Promise<boolean>;
  /** Every membership with its team's name, by user then team (for listings of many users). */
  memberships(): Promise<{ userId: number; id: number; name: string }[]>;
  /** Adds `userId` to `teamId`; a no-op when already a member. */
  addMember(teamId: number, userId: number): Promise<void>;
  /** Removes `userId` from `teamId`; false when they were not a member. */
  removeMember(teamId: number, userId: number): Promise<boolean>;
}

/** What auth may ask about teams and membership (see auth/lookups.ts). */
export function teamLookup(teams: TeamRepo): TeamLookup {
  return {
    teamsOf: (userId) => teams.teamsOfUser(userId),
    byName: async (name) => {
      const team = await teams.findByName(name);
      return team ? { id: team.id } : null;
    },
    isMember: (userId, teamId) => teams.isMember(userId, teamId),
  };
}

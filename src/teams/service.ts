/** Team rules: names are globally unique; membership links developers to teams. */
import type { Deps } from "../deps.ts";
import { Conflict, NotFound } from "../errors.ts";
import type { Team } from "../db/schema.ts";
import { findUserByEmail } from "../users/repo.ts";
import { addMember, anyTeamExists, findTeamByName, insertTeam, listTeamsOfUser } from "./repo.ts";

type TeamDeps = Pick<Deps, "db">;

/** Creates a team; 409 `team_exists` when the name is taken (nothing written). */
export function createTeam(deps: TeamDeps, name: string): Team {
  // bun:sqlite runs a nested transaction as a savepoint on the same connection, so the repo keeps using deps.db.
  return deps.db.transaction(() => {
    if (findTeamByName(deps.db, name)) throw new Conflict(`A team named "${name}" already exists.`, "team_exists");
    return insertTeam(deps.db, name);
  });
}

/** The team named `name`, or 404. */
export function requireTeam(deps: TeamDeps, name: string): Team {
  const team = findTeamByName(deps.db, name);
  if (!team) throw new NotFound(`team named "${name}"`);
  return team;
}

/** Adds the existing developer with `email` to the team named `teamName`. */
export function addTeamMember(deps: TeamDeps, teamName: string, email: string): { team: Team; userId: number } {
  const team = requireTeam(deps, teamName);
  const user = findUserByEmail(deps.db, email.trim().toLowerCase());
  if (!user) throw new NotFound(`developer with e-mail "${email}"`);
  joinTeam(deps, team.id, user.id);
  return { team, userId: user.id };
}

/** Makes `userId` a member of `teamId`; a no-op when already a member. */
export function joinTeam(deps: TeamDeps, teamId: number, userId: number): void {
  addMember(deps.db, teamId, userId);
}

/** True once any team exists. */
export function hasAnyTeam(deps: TeamDeps): boolean {
  return anyTeamExists(deps.db);
}

/** The teams of a developer as `{pk, name}`. */
export function teamsOf(deps: TeamDeps, userId: number): { pk: number; name: string }[] {
  return listTeamsOfUser(deps.db, userId).map((t) => ({ pk: t.id, name: t.name }));
}

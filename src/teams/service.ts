/**
 * Team rules: names are globally unique; membership links developers to teams; deleting a team deletes
 * everything that belongs to it (players and their conversations, service accounts, memberships) in one
 * transaction, and every token and socket of it ends at once.
 */
import type { Deps } from "../deps.ts";
import { Conflict, NotFound } from "../errors.ts";
import type { Team } from "../db/schema.ts";
import { findUserByEmail } from "../users/repo.ts";
import { removeTeamPlayers } from "../players/service.ts";
import { removeTeamServiceAccounts } from "../service-accounts/service.ts";
import { addMember, anyTeamExists, deleteTeamRow, findTeam, findTeamByName, insertTeam, listMemberships, listTeams, listTeamsOfUser, removeMember, updateTeamName } from "./repo.ts";
import type { TeamBody, TeamRef } from "./model.ts";

type TeamDeps = Pick<Deps, "db">;

/** Creates a team; 409 `team_exists` when the name is taken (nothing written). */
export function createTeam(deps: TeamDeps, name: string): Team {
  // bun:sqlite runs a nested transaction as a savepoint on the same connection, so the repo keeps using deps.db.
  return deps.db.transaction(() => {
    if (findTeamByName(deps.db, name)) throw new Conflict(`A team named "${name}" already exists.`, "team_exists");
    return insertTeam(deps.db, name);
  });
}

/** Every team as `{pk, name}` (operator). */
export function listAllTeams(deps: TeamDeps): TeamRef[] {
  return listTeams(deps.db).map(ref);
}

/** The team with `id`, or 404. */
export function getTeam(deps: TeamDeps, id: number): TeamBody {
  return show(requireTeamById(deps, id));
}

/** Renames the team `id` (an absent name changes nothing); 409 `team_exists` when the name is taken. */
export function renameTeam(deps: TeamDeps, id: number, name: string | undefined): TeamBody {
  return deps.db.transaction(() => {
    const team = requireTeamById(deps, id);
    if (name === undefined || name === team.name) return show(team);
    if (findTeamByName(deps.db, name)) throw new Conflict(`A team named "${name}" already exists.`, "team_exists");
    return show(updateTeamName(deps.db, id, name)!);
  });
}

/** Deletes the team `id` and everything that belongs to it; its tokens and sockets end at once. */
export function deleteTeam(deps: Pick<Deps, "db" | "secrets" | "config" | "revocations">, id: number): void {
  deps.db.transaction(() => {
    requireTeamById(deps, id);
    removeTeamPlayers(deps, id);
    removeTeamServiceAccounts(deps, id);
    // Developers stay (they may belong to other teams); their tokens for this team fail the membership check.
    deleteTeamRow(deps.db, id);
  });
}

/** The team with `id`, or 404. */
export function requireTeamById(deps: TeamDeps, id: number): Team {
  const team = findTeam(deps.db, id);
  if (!team) throw new NotFound("team");
  return team;
}

/** Removes `userId` from `teamId`; false when they were not a member. Their tokens for the team end at once. */
export function leaveTeam(deps: TeamDeps, teamId: number, userId: number): boolean {
  return removeMember(deps.db, teamId, userId);
}

/** Every developer's teams as `{pk, name}`, by user id (for listings of many developers). */
export function teamsByUser(deps: TeamDeps): Map<number, TeamRef[]> {
  const byUser = new Map<number, TeamRef[]>();
  for (const m of listMemberships(deps.db)) {
    const list = byUser.get(m.userId) ?? [];
    list.push({ pk: m.id, name: m.name });
    byUser.set(m.userId, list);
  }
  return byUser;
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
export function teamsOf(deps: TeamDeps, userId: number): TeamRef[] {
  return listTeamsOfUser(deps.db, userId).map(ref);
}

function ref(team: Pick<Team, "id" | "name">): TeamRef {
  return { pk: team.id, name: team.name };
}

function show(team: Team): TeamBody {
  return { pk: team.id, name: team.name, created_at: new Date(team.createdAt).toISOString() };
}

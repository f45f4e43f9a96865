/**
 * Team rules: names are globally unique; membership links developers to teams; deleting a team deletes
 * everything that belongs to it (players and their conversations, service accounts, memberships) in one
 * transaction, and every token and socket of it ends at once (after the commit).
 */

import { type AuditContext, SYSTEM } from "../audit/service.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { Team } from "../db/schema.ts";
import type { Store } from "../db/store.ts";
import { Conflict, Forbidden, NotFound } from "../errors.ts";
import { type PlayerNeeds, type PlayerRepositories, removeTeamPlayers } from "../players/service.ts";
import { removeTeamServiceAccounts, type ServiceAccountNeeds, type ServiceAccountRepositories } from "../service-accounts/service.ts";
import type { UserRepo } from "../users/repo.ts";
import type { TeamBody, TeamRef } from "./model.ts";
import type { TeamRepo } from "./repo.ts";

/** The repositories the teams feature uses. */
export type TeamRepositories = { teams: TeamRepo; users: UserRepo };

/** What the teams feature needs. */
export interface TeamNeeds {
  store: Store<TeamRepositories>;
}

/** Deleting a team also needs what deleting its players and service accounts needs. */
export type DeleteTeamNeeds = Omit<PlayerNeeds & ServiceAccountNeeds, "store"> & {
  store: Store<TeamRepositories & PlayerRepositories & ServiceAccountRepositories>;
};

/** Creates a team; 409 `team_exists` when the name is taken (nothing written). */
export async function createTeam(deps: TeamNeeds, name: string): Promise<Team> {
  return uniqueName(
    name,
    deps.store.transaction(async (tx) => {
      if (await tx.teams.findByName(name)) throw teamExists(name);
      return tx.teams.insert(name);
    }),
  );
}

/** Every team as `{pk, name}` (operator). */
export async function listAllTeams(deps: TeamNeeds): Promise<TeamRef[]> {
  return (await deps.store.teams.list()).map(ref);
}

/** The team with `id`, or 404. */
export async function getTeam(deps: TeamNeeds, id: number): Promise<TeamBody> {
  return show(await requireTeamById(deps, id));
}

/** Renames the team `id` (an absent name changes nothing); 409 `team_exists` when the name is taken. */
export async function renameTeam(deps: TeamNeeds, id: number, name: string | undefined): Promise<TeamBody> {
  return uniqueName(
    name ?? "",
    deps.store.transaction(async (tx) => {
      const team = await requireTeamById({ store: tx }, id);
      if (name === undefined || name === team.name) return show(team);
      if (await tx.teams.findByName(name)) throw teamExists(name);
      return show((await tx.teams.rename(id, name))!);
    }),
  );
}

/** Turns the team's `require_consent` on or off (changes nothing stored: erasure is its own call); 404 when absent. */
export async function setRequireConsent(deps: TeamNeeds, id: number, value: boolean): Promise<TeamBody> {
  const team = await deps.store.teams.setRequireConsent(id, value);
  if (!team) throw new NotFound("team");
  return show(team);
}

/**
 * Edits the team `id` for the operator (name and require_consent) or for a developer (require_consent of their
 * token's own team only), all or nothing. Renaming is the operator's whatever the team, so that 403 tells nothing about the team;
 * another team's id is 404 to a developer, never 403.
 */
export async function editTeam(
  deps: TeamNeeds,
  by: "operator" | { developerOf: number | null },
  id: number,
  changes: { name?: string; requireConsent?: boolean },
): Promise<TeamBody> {
  if (by !== "operator") {
    if (changes.name !== undefined) throw new Forbidden("Renaming a team takes an operator token.");
    if (by.developerOf !== id) throw new NotFound("team");
  }
  // One transaction: a name already taken (409) also leaves require_consent as it was.
  return deps.store.transaction(async (tx) => {
    if (changes.requireConsent !== undefined) await setRequireConsent({ store: tx }, id, changes.requireConsent);
    return renameTeam({ store: tx }, id, changes.name);
  });
}

/** Deletes the team `id` and everything that belongs to it; its tokens and sockets end once that has committed. */
export async function deleteTeam(deps: DeleteTeamNeeds, id: number, context: AuditContext = SYSTEM): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const inTx = { ...deps, store: tx };
    // Locked first: nothing can be added to the team while it is being emptied.
    if (!(await tx.teams.lock(id))) throw new NotFound("team");
    await removeTeamPlayers(inTx, id, context);
    await removeTeamServiceAccounts(inTx, id);
    // Developers stay (they may belong to other teams); their tokens for this team fail the membership check.
    await tx.teams.delete(id);
  });
}

/** The team with `id`, or 404. */
export async function requireTeamById(deps: TeamNeeds, id: number): Promise<Team> {
  const team = await deps.store.teams.find(id);
  if (!team) throw new NotFound("team");
  return team;
}

/** Removes `userId` from `teamId`; false when they were not a member. Their tokens for the team end at once. */
export function leaveTeam(deps: TeamNeeds, teamId: number, userId: number): Promise<boolean> {
  return deps.store.teams.removeMember(teamId, userId);
}

/** Every developer's teams as `{pk, name}`, by user id (for listings of many developers). */
export async function teamsByUser(deps: TeamNeeds): Promise<Map<number, TeamRef[]>> {
  const byUser = new Map<number, TeamRef[]>();
  for (const m of await deps.store.teams.memberships()) {
    const list = byUser.get(m.userId) ?? [];
    list.push({ pk: m.id, name: m.name });
    byUser.set(m.userId, list);
  }
  return byUser;
}

/** The team named `name`, or 404. */
export async function requireTeam(deps: TeamNeeds, name: string): Promise<Team> {
  const team = await deps.store.teams.findByName(name);
  if (!team) throw new NotFound(`team named "${name}"`);
  return team;
}

/** Adds the existing developer with `email` to the team named `teamName`. */
export async function addTeamMember(deps: TeamNeeds, teamName: string, email: string): Promise<{ team: Team; userId: number }> {
  const team = await requireTeam(deps, teamName);
  const user = await deps.store.users.findByEmail(email.trim().toLowerCase());
  if (!user) throw new NotFound(`developer with e-mail "${email}"`);
  await joinTeam(deps, team.id, user.id);
  return { team, userId: user.id };
}

/** Makes `userId` a member of `teamId`; a no-op when already a member. */
export function joinTeam(deps: TeamNeeds, teamId: number, userId: number): Promise<void> {
  return deps.store.teams.addMember(teamId, userId);
}

/** True once any team exists. */
export function hasAnyTeam(deps: TeamNeeds): Promise<boolean> {
  return deps.store.teams.any();
}

/** The teams of a developer as `{pk, name}`. */
export async function teamsOf(deps: TeamNeeds, userId: number): Promise<TeamRef[]> {
  return (await deps.store.teams.teamsOfUser(userId)).map(ref);
}

function ref(team: Pick<Team, "id" | "name">): TeamRef {
  return { pk: team.id, name: team.name };
}

function show(team: Team): TeamBody {
  return { pk: team.id, name: team.name, created_at: new Date(team.createdAt).toISOString(), require_consent: team.requireConsent };
}

function teamExists(name: string): Conflict {
  return new Conflict(`A team named "${name}" already exists.`, "team_exists");
}

// Two writers checking the same name at once (PostgreSQL, several nodes): the unique index refuses the second.
async function uniqueName<T>(name: string, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw teamExists(name);
    throw error;
  }
}

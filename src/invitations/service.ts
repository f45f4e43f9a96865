/**
 * Team invitations: the only way a developer of a team brings someone else in.
 *
 * Data model: an invitation is a (team, e-mail) row until it is accepted, declined or withdrawn. It grants
 * nothing by itself: no account is created and no key is made when inviting.
 *
 * Rules it keeps:
 * - inviting answers alike whether the e-mail belongs to a developer or not (the HTTP API never learns which
 *   e-mails have accounts); only the team's own state (already a member, already invited) is told, and only to
 *   the console of that team, which lists both anyway;
 * - an existing developer joins a team only by accepting its invitation, signed in as themselves: nobody else
 *   can attach an account (and so its key) to a team;
 * - a brand-new account made by single sign-on with the invited, verified e-mail joins the team that invited
 *   it first (the invitation was for exactly that e-mail, and nobody else holds the new account's key); later
 *   invitations wait for acceptance like any other;
 * - a developer may leave a team, but not their last one (a developer in no team cannot sign in anywhere);
 *   on PostgreSQL the developer's row is locked first, so two nodes cannot each remove one of their last two.
 * A team has at most HOOT_MAX_PENDING_INVITATIONS_PER_TEAM invitations waiting; past it a new one is refused
 * (409 limit_reached) until one is accepted, declined or withdrawn.
 * An invitation is used once: accepting, declining and withdrawing delete it and act only on the row they
 * deleted, so two requests racing for one invitation (on one node or two) cannot both use it.
 */
import type { Config } from "../config.ts";
import type { ConsoleInvitation } from "../db/schema.ts";
import type { Store } from "../db/store.ts";
import { Conflict, LimitReached, NotFound } from "../errors.ts";
import type { TeamRepo } from "../teams/repo.ts";
import { joinTeam, leaveTeam, teamsOf } from "../teams/service.ts";
import { normalizeEmail } from "../users/email.ts";
import type { UserRepo } from "../users/repo.ts";
import type { InvitationRepo } from "./repo.ts";

/** What the invitations feature needs. */
export interface InvitationNeeds {
  store: Store<{ invitations: InvitationRepo; teams: TeamRepo; users: UserRepo }>;
}
/** Inviting also needs the cap on pending invitations. */
export type InviteNeeds = InvitationNeeds & { config: Pick<Config, "maxPendingInvitationsPerTeam"> };

export interface TeamInvitation {
  pk: number;
  email: string;
  created_at: string;
}

export interface MyInvitation {
  pk: number;
  team: { pk: number; name: string };
  created_at: string;
}

export type InviteOutcome =
  | { status: "invited"; email: string; invitation: TeamInvitation }
  | { status: "already_member"; email: string }
  | { status: "already_invited"; email: string };

/**
 * Invites `email` to `teamId` on behalf of `invitedBy`; says whether a new invitation was made, or why not.
 * @example await inviteToTeam(deps, { teamId: 3, email: "ada@example.com", invitedBy: 7 })
 */
export async function inviteToTeam(deps: InviteNeeds, input: { teamId: number; email: string; invitedBy: number | null }): Promise<InviteOutcome> {
  const email = normalizeEmail(input.email);
  return deps.store.transaction(async (tx): Promise<InviteOutcome> => {
    const existing = await tx.users.findByEmail(email);
    if (existing && (await tx.teams.isMember(existing.id, input.teamId))) return { status: "already_member", email };
    const pending = await tx.invitations.listForTeam(input.teamId);
    if (pending.some((invitation) => invitation.email === email)) return { status: "already_invited", email };
    const cap = deps.config.maxPendingInvitationsPerTeam;
    if (pending.length >= cap)
      throw new LimitReached("pending invitations", cap, "HOOT_MAX_PENDING_INVITATIONS_PER_TEAM", "withdraw one, or wait until one is accepted or declined");
    // The unique (team, e-mail) index decides "already invited", also when two nodes invite at once.
    const row = await tx.invitations.insert({ teamId: input.teamId, email, invitedBy: input.invitedBy });
    if (!row) return { status: "already_invited", email };
    return { status: "invited", email, invitation: showForTeam(row) };
  });
}

/** The console's invite: 201 with the invitation, or 409 `already_member` / `already_invited`. */
export async function inviteFromConsole(deps: InviteNeeds, teamId: number, email: string, invitedBy: number): Promise<TeamInvitation> {
  const outcome = await inviteToTeam(deps, { teamId, email, invitedBy });
  if (outcome.status === "already_member") throw new Conflict(`${outcome.email} is already in this team.`, "already_member");
  if (outcome.status === "already_invited") throw new Conflict(`${outcome.email} is already invited to this team.`, "already_invited");
  return outcome.invitation;
}

/** A team's pending invitations, oldest first. */
export async function teamInvitations(deps: InvitationNeeds, teamId: number): Promise<TeamInvitation[]> {
  return (await deps.store.invitations.listForTeam(teamId)).map(showForTeam);
}

/** Withdraws the team's invitation `id` (404 for another team's). */
export async function withdrawInvitation(deps: InvitationNeeds, teamId: number, id: number): Promise<void> {
  if (!(await deps.store.invitations.delete(teamId, id))) throw new NotFound("invitation");
}

/** The invitations waiting for developer `userId` (by their e-mail), oldest first. */
export async function invitationsOf(deps: InvitationNeeds, userId: number): Promise<MyInvitation[]> {
  const user = await deps.store.users.get(userId);
  if (!user) return [];
  return (await deps.store.invitations.listForEmail(user.email)).map((i) => ({
    pk: i.id,
    team: { pk: i.teamId, name: i.teamName },
    created_at: iso(i.createdAt),
  }));
}

/** Developer `userId` accepts their invitation `id` and joins its team; the team. 404 when it is not theirs. */
export async function acceptInvitation(deps: InvitationNeeds, userId: number, id: number): Promise<{ pk: number; name: string }> {
  return deps.store.transaction(async (tx) => {
    const inTx = { ...deps, store: tx };
    const row = await takeOwn(inTx, userId, id);
    await joinTeam(inTx, row.teamId, userId);
    const team = (await teamsOf(inTx, userId)).find((t) => t.pk === row.teamId);
    if (!team) throw new NotFound("invitation");
    return team;
  });
}

/** Developer `userId` declines their invitation `id`; 404 when it is not theirs. */
export async function declineInvitation(deps: InvitationNeeds, userId: number, id: number): Promise<void> {
  await takeOwn(deps, userId, id);
}

/** Developer `userId` leaves `teamId`; 404 when not a member, 409 `last_team` for their only team. */
export async function leaveOwnTeam(deps: InvitationNeeds, userId: number, teamId: number): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const inTx = { ...deps, store: tx };
    if (!(await tx.users.lock(userId))) throw new NotFound("team");
    const teams = await teamsOf(inTx, userId);
    if (!teams.some((t) => t.pk === teamId)) throw new NotFound("team");
    if (teams.length === 1) throw new Conflict("This is your only team: a developer must belong to at least one. Join another team first.", "last_team");
    await leaveTeam(inTx, teamId, userId);
  });
}

/**
 * For a developer account single sign-on has just created for `email` (call inside that transaction): joins
 * the team that invited the e-mail first and uses up that invitation; null when nobody invited it.
 */
export async function joinFirstInvitingTeam(deps: InvitationNeeds, userId: number, email: string): Promise<number | null> {
  for (const candidate of await deps.store.invitations.listForEmail(email)) {
    // Only an invitation this call deleted counts: one withdrawn meanwhile grants nothing.
    const row = await deps.store.invitations.takeFor(email, candidate.id);
    if (!row) continue;
    await joinTeam(deps, row.teamId, userId);
    return row.teamId;
  }
  return null;
}

/** Whether anyone invited `email` (single sign-on lets an unknown e-mail in only then). */
export async function isInvited(deps: InvitationNeeds, email: string): Promise<boolean> {
  return (await deps.store.invitations.listForEmail(email)).length > 0;
}

async function takeOwn(deps: InvitationNeeds, userId: number, id: number): Promise<ConsoleInvitation> {
  const user = await deps.store.users.get(userId);
  const row = user ? await deps.store.invitations.takeFor(user.email, id) : null;
  if (!row) throw new NotFound("invitation");
  return row;
}

function showForTeam(row: ConsoleInvitation): TeamInvitation {
  return { pk: row.id, email: row.email, created_at: iso(row.createdAt) };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

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
 * - a developer may leave a team, but not their last one (a developer in no team cannot sign in anywhere).
 */
import type { Deps } from "../deps.ts";
import { Conflict, NotFound } from "../errors.ts";
import type { ConsoleInvitation } from "../db/schema.ts";
import { isMember } from "../teams/repo.ts";
import { joinTeam, leaveTeam, teamsOf } from "../teams/service.ts";
import { findUserByEmail, getUser } from "../users/repo.ts";
import { normalizeEmail } from "../users/email.ts";
import { deleteInvitation, insertInvitation, invitationsFor, listInvitations, takeInvitationFor } from "./repo.ts";

type InvitationDeps = Pick<Deps, "db">;

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
 * @example inviteToTeam(deps, { teamId: 3, email: "ada@example.com", invitedBy: 7 })
 */
export function inviteToTeam(deps: InvitationDeps, input: { teamId: number; email: string; invitedBy: number | null }): InviteOutcome {
  const email = normalizeEmail(input.email);
  return deps.db.transaction(() => {
    const existing = findUserByEmail(deps.db, email);
    if (existing && isMember(deps.db, existing.id, input.teamId)) return { status: "already_member", email };
    const row = insertInvitation(deps.db, { teamId: input.teamId, email, invitedBy: input.invitedBy });
    if (!row) return { status: "already_invited", email };
    return { status: "invited", email, invitation: showForTeam(row) };
  });
}

/** The console's invite: 201 with the invitation, or 409 `already_member` / `already_invited`. */
export function inviteFromConsole(deps: InvitationDeps, teamId: number, email: string, invitedBy: number): TeamInvitation {
  const outcome = inviteToTeam(deps, { teamId, email, invitedBy });
  if (outcome.status === "already_member") throw new Conflict(`${outcome.email} is already in this team.`, "already_member");
  if (outcome.status === "already_invited") throw new Conflict(`${outcome.email} is already invited to this team.`, "already_invited");
  return outcome.invitation;
}

/** A team's pending invitations, oldest first. */
export function teamInvitations(deps: InvitationDeps, teamId: number): TeamInvitation[] {
  return listInvitations(deps.db, teamId).map(showForTeam);
}

/** Withdraws the team's invitation `id` (404 for another team's). */
export function withdrawInvitation(deps: InvitationDeps, teamId: number, id: number): void {
  if (!deleteInvitation(deps.db, teamId, id)) throw new NotFound("invitation");
}

/** The invitations waiting for developer `userId` (by their e-mail), oldest first. */
export function invitationsOf(deps: InvitationDeps, userId: number): MyInvitation[] {
  const user = getUser(deps.db, userId);
  if (!user) return [];
  return invitationsFor(deps.db, user.email).map((i) => ({ pk: i.id, team: { pk: i.teamId, name: i.teamName }, created_at: iso(i.createdAt) }));
}

/** Developer `userId` accepts their invitation `id` and joins its team; the team. 404 when it is not theirs. */
export function acceptInvitation(deps: InvitationDeps, userId: number, id: number): { pk: number; name: string } {
  return deps.db.transaction(() => {
    const row = takeOwn(deps, userId, id);
    joinTeam(deps, row.teamId, userId);
    const team = teamsOf(deps, userId).find((t) => t.pk === row.teamId);
    if (!team) throw new NotFound("invitation");
    return team;
  });
}

/** Developer `userId` declines their invitation `id`; 404 when it is not theirs. */
export function declineInvitation(deps: InvitationDeps, userId: number, id: number): void {
  takeOwn(deps, userId, id);
}

/** Developer `userId` leaves `teamId`; 404 when not a member, 409 `last_team` for their only team. */
export function leaveOwnTeam(deps: InvitationDeps, userId: number, teamId: number): void {
  deps.db.transaction(() => {
    const teams = teamsOf(deps, userId);
    if (!teams.some((t) => t.pk === teamId)) throw new NotFound("team");
    if (teams.length === 1) throw new Conflict("This is your only team: a developer must belong to at least one. Join another team first.", "last_team");
    leaveTeam(deps, teamId, userId);
  });
}

/**
 * For a developer account single sign-on has just created for `email`: joins the team that invited the
 * e-mail first and uses up that invitation; null when nobody invited it.
 */
export function joinFirstInvitingTeam(deps: InvitationDeps, userId: number, email: string): number | null {
  const first = invitationsFor(deps.db, email)[0];
  if (!first) return null;
  takeInvitationFor(deps.db, email, first.id);
  joinTeam(deps, first.teamId, userId);
  return first.teamId;
}

/** Whether anyone invited `email` (single sign-on lets an unknown e-mail in only then). */
export function isInvited(deps: InvitationDeps, email: string): boolean {
  return invitationsFor(deps.db, email).length > 0;
}

function takeOwn(deps: InvitationDeps, userId: number, id: number): ConsoleInvitation {
  const user = getUser(deps.db, userId);
  const row = user ? takeInvitationFor(deps.db, user.email, id) : null;
  if (!row) throw new NotFound("invitation");
  return row;
}

function showForTeam(row: ConsoleInvitation): TeamInvitation {
  return { pk: row.id, email: row.email, created_at: iso(row.createdAt) };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

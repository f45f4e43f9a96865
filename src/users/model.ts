import { type Static, t } from "elysia";
import { IdSegment } from "../http/params.ts";
import { CreatedSdkServiceAccount } from "../service-accounts/model.ts";
import { TeamRef } from "../teams/model.ts";

export const Me = t.Object({
  pk: t.Integer(),
  name: t.String(),
  email: t.String(),
  api_key: t.String({ description: "the developer (private) API key" }),
  teams: t.Array(TeamRef),
});
export type Me = Static<typeof Me>;

export const RotatedKey = t.Object({ api_key: t.String({ description: "the new developer key; the old one no longer works" }) });

const Name = t.String({ minLength: 1, maxLength: 100, pattern: "\\S", rule: "text with at least one character that is not a space" });

/** A developer as the operator sees them. */
export const UserBody = t.Object({
  pk: t.Integer(),
  name: t.String(),
  email: t.String(),
  user_type: t.Literal("user"),
  teams: t.Array(TeamRef),
  created_at: t.String(),
});
export type UserBody = Static<typeof UserBody>;

export const UserEnvelope = t.Object({ user: UserBody });
export const UserList = t.Object({ users: t.Array(UserBody) });

/** A developer the operator just created, with their key shown this once. */
export const CreatedDeveloper = t.Object({
  pk: t.Integer(),
  name: t.String(),
  email: t.String(),
  user_type: t.Literal("user"),
  api_key: t.String({ description: "the new developer's key: shown this once" }),
});
export type CreatedDeveloper = Static<typeof CreatedDeveloper>;

/** A developer token's POST /api/users {user_type: "user"}: the e-mail is invited to the caller's team. */
export const InvitedDeveloper = t.Object({
  email: t.String({ description: "the invited e-mail, as stored (lower-cased)" }),
  invited: t.Literal(true),
});
export type InvitedDeveloper = Static<typeof InvitedDeveloper>;

export const CreateUserBody = t.Object(
  {
    name: Name,
    email: t.Optional(t.Union([t.String({ maxLength: 254 }), t.Null()], { description: "required for user_type user; ignored for service accounts" })),
    user_type: t.Optional(
      t.Union([t.Literal("user"), t.Literal("playerLogin"), t.Literal("playerCreate"), t.Null()], {
        description: "user (default): a developer; playerLogin / playerCreate: a service account of the caller's team",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const CreatedUser = t.Union([CreatedSdkServiceAccount, CreatedDeveloper]);

export const EditUserBody = t.Object(
  { name: t.Optional(t.Union([t.String({ maxLength: 100 }), t.Null()], { description: "the new name; null or empty changes nothing" })) },
  { additionalProperties: false },
);

export const UserParams = t.Object({ user_pk: IdSegment });
export const MembershipParams = t.Object({ user_pk: IdSegment, team_pk: IdSegment });

import { type Static, t } from "elysia";
import { IdSegment } from "../http/params.ts";

export const TeamRef = t.Object({ pk: t.Integer(), name: t.String() });
export type TeamRef = Static<typeof TeamRef>;

export const TeamList = t.Object({ teams: t.Array(TeamRef) });

export const TeamBody = t.Object({ pk: t.Integer(), name: t.String(), created_at: t.String() });
export type TeamBody = Static<typeof TeamBody>;

export const TeamEnvelope = t.Object({ team: TeamBody });

export const TeamName = t.String({
  minLength: 1,
  maxLength: 100,
  pattern: "\\S",
  rule: "text with at least one character that is not a space",
  description: "unique across the deployment",
});

export const CreateTeamBody = t.Object({ name: TeamName }, { additionalProperties: false });

export const EditTeamBody = t.Object(
  { name: t.Optional(t.Union([TeamName, t.Literal(""), t.Null()], { description: "the new name; null or empty changes nothing" })) },
  { additionalProperties: false },
);

export const TeamParams = t.Object({ team_pk: IdSegment });

import { type Static, t } from "elysia";
import { IdSegment } from "../http/params.ts";

export const TeamRef = t.Object({ pk: t.Integer(), name: t.String() });
export type TeamRef = Static<typeof TeamRef>;

export const TeamList = t.Object({ teams: t.Array(TeamRef) });

export const TeamBody = t.Object({
  pk: t.Integer(),
  name: t.String(),
  created_at: t.String(),
  require_consent: t.Boolean({ description: "players without a parent's consent talk in data-lite mode (docs/privacy.md)" }),
});
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
  {
    name: t.Optional(t.Union([TeamName, t.Literal(""), t.Null()], { description: "the new name (operator only); null or empty changes nothing" })),
    require_consent: t.Optional(t.Boolean({ description: "the team's developer or the operator: players without consent talk in data-lite mode" })),
  },
  { additionalProperties: false },
);

export const TeamParams = t.Object({ team_pk: IdSegment });

import { type Static, t } from "elysia";
import { IdSegment } from "../http/params.ts";

export const ListIncidentsQuery = t.Object(
  {
    limit: t.Optional(t.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    after: t.Optional(t.String({ maxLength: 64, description: "the `next` cursor of the previous page (older incidents follow)" })),
    player_pk: t.Optional(IdSegment),
  },
  { additionalProperties: false },
);
export type ListIncidentsQuery = Static<typeof ListIncidentsQuery>;

export const IncidentBody = t.Object({
  pk: t.Integer(),
  player_pk: t.Integer(),
  session_id: t.String({ description: "the interact socket the incident happened on" }),
  category: t.String({ description: "self_harm, abuse, stranger_danger, ... or boundary_testing (the session moved to the stricter stance) or moderation" }),
  action: t.String({ description: "always escalate" }),
  direction: t.Union([t.Literal("input"), t.Literal("output")], {
    description: "input: the child's message; output: a reply sentence the model wrote (never sent)",
  }),
  policy: t.String({ description: "the policy in force" }),
  repeats: t.Optional(
    t.Integer({
      description:
        "present when further incidents of this player in the same minute, past HOOT_INCIDENTS_PER_PLAYER_PER_MINUTE, were counted on this row instead " +
        "of one row each: how many",
    }),
  ),
  created_at: t.String(),
});
export type IncidentBody = Static<typeof IncidentBody>;

export const IncidentList = t.Object({
  incidents: t.Array(IncidentBody),
  next: t.Union([t.String(), t.Null()], { description: "cursor for the next (older) page, null on the last" }),
});
export type IncidentList = Static<typeof IncidentList>;

/**
 * The team safety policy API's shapes. A body is validated by the safety library (`validateTeamPolicy`,
 * src/engine/safety/policy/model.ts), which names the field in every error; the route only requires a JSON
 * object, so that those sentences (not Elysia's) reach the developer. The schemas here document the answers.
 */
import { type Static, t } from "elysia";

/** Any JSON object: the library validates it (see the README's "Team policies"). */
export const PolicyRequestBody = t.Record(t.String(), t.Unknown(), {
  description:
    "A team policy: name (POST), description, base, categories, redirect_lines, blocked_terms, allowed_terms, check_output, strict_after. See the " +
    "README's Child safety section.",
});

export const PolicyParams = t.Object({ name: t.String({ maxLength: 200 }) });

/** A stored team policy as the API shows it: its name, its body's fields, and read-only fields. */
export const TeamPolicyView = t.Object(
  {
    name: t.String(),
    description: t.Optional(t.String()),
    base: t.Optional(t.String()),
    categories: t.Optional(t.Record(t.String(), t.Unknown())),
    redirect_lines: t.Optional(t.Array(t.String())),
    blocked_terms: t.Optional(t.Array(t.String())),
    allowed_terms: t.Optional(t.Array(t.String())),
    check_output: t.Optional(t.Boolean()),
    strict_after: t.Optional(t.Integer()),
    builtin: t.Literal(false),
    version: t.Integer({ description: "Grows with every change; send it back in PUT to refuse a lost update (409)." }),
    created_at: t.String(),
    updated_at: t.String(),
  },
  { additionalProperties: false },
);
export type TeamPolicyView = Static<typeof TeamPolicyView>;

export const TeamPolicyList = t.Object({ policies: t.Array(TeamPolicyView) });

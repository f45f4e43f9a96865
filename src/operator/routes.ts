/** Pieces every operator-only route uses, so teams/ and users/ declare theirs in one line each. */
import type { TSchema } from "elysia";

/**
 * The hook options of an operator-only route: the `access` macro, its path params, and its docs.
 * @example .get("/api/teams/:team_pk", handler, { ...operatorOnly(TeamParams, "Get a team"), response: TeamEnvelope })
 */
export function operatorOnly<P extends TSchema>(params: P, summary: string, description?: string) {
  return { access: ["operator"] as ["operator"], params, detail: { summary: `${summary} (operator)`, ...(description ? { description } : {}) } };
}

/**
 * The audit feature: who looked at, exported, erased or deleted a child's data, or changed their consent
 * (PROTOCOL.md section 8). Route: GET /api/audit (developer token, team-scoped, newest first).
 */
import { Elysia } from "elysia";
import { type AuthNeeds, authPlugin } from "../auth/index.ts";
import { AuditList, ListAuditQuery } from "./model.ts";
import { type AuditNeeds, listTeamAudit } from "./service.ts";

/** The audit controller. */
export function auditRoutes(deps: AuthNeeds & AuditNeeds) {
  return new Elysia({ name: "audit", detail: { tags: ["Privacy"] } })
    .use(authPlugin(deps))
    .get("/api/audit", ({ caller, query }) => listTeamAudit(deps, caller.teamId, query), {
      // PROTOCOL.md: "" for an optional field means absent (`?player_pk=&limit=` is the whole team's first page).
      transform: ({ query }) => dropEmpty(query),
      auth: ["developer"],
      query: ListAuditQuery,
      response: AuditList,
      detail: {
        summary: "List the audit trail",
        description:
          "Who read, exported, erased or deleted a player's data or changed their consent, newest first, never any content. Page with `limit` and " +
          "`after` (the previous page's `next`); `player_pk` keeps one player's rows, also after the player was deleted.",
      },
    });
}

// Before validation: an empty value is no value.
function dropEmpty(query: Record<string, unknown>): void {
  for (const key of Object.keys(query)) if (query[key] === "") delete query[key];
}

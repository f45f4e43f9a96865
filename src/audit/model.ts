import { type Static, t } from "elysia";
import { IdSegment } from "../http/params.ts";

export const ListAuditQuery = t.Object(
  {
    limit: t.Optional(t.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    after: t.Optional(t.String({ maxLength: 64, description: "the `next` cursor of the previous page (older rows follow)" })),
    player_pk: t.Optional(IdSegment),
  },
  { additionalProperties: false },
);
export type ListAuditQuery = Static<typeof ListAuditQuery>;

export const AuditEntry = t.Object({
  at: t.String({ description: "when, ISO 8601 UTC" }),
  actor: t.Object({
    kind: t.Union([t.Literal("developer"), t.Literal("service_account"), t.Literal("operator"), t.Literal("console"), t.Literal("system")], {
      description: "console: a developer signed in to the console (pk: the developer); system: hoot itself (pk: null)",
    }),
    pk: t.Union([t.Integer(), t.Null()]),
  }),
  action: t.String({ description: "player.read, player.export, player.consent, player.history_erase or player.delete" }),
  player_pk: t.Union([t.Integer(), t.Null()], { description: "the player acted on; rows outlive the player" }),
  request_id: t.Union([t.String(), t.Null()], { description: "the request's x-request-id, or null" }),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditList = t.Object({
  audit: t.Array(AuditEntry),
  next: t.Union([t.String(), t.Null()], { description: "cursor for the next (older) page, null on the last" }),
});
export type AuditList = Static<typeof AuditList>;

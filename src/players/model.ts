import { type Static, t } from "elysia";
import { IdSegment } from "../http/params.ts";
import { IncidentBody } from "../incidents/model.ts";

const ExternalId = t.String({
  minLength: 1,
  maxLength: 256,
  description: "the developer's own unique id for the player (e-mail, username, device id); not used for authentication",
});

export const CreatePlayerBody = t.Object({ external_id: ExternalId }, { additionalProperties: false });
export const Consent = t.Union([t.Literal("none"), t.Literal("granted")], {
  description: "a parent's consent as the team's backend reports it: none (the default) or granted",
});

export const EditPlayerBody = t.Object(
  {
    external_id: t.Optional(ExternalId),
    consent: t.Optional(Consent),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type EditPlayerBody = Static<typeof EditPlayerBody>;
export type CreatePlayerBody = Static<typeof CreatePlayerBody>;

export const PlayerParams = t.Object({ player_pk: IdSegment });

export const ListPlayersQuery = t.Object(
  {
    limit: t.Optional(t.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    after: t.Optional(t.String({ maxLength: 64, description: "the `next` cursor of the previous page" })),
  },
  { additionalProperties: false },
);

export const PlayerBody = t.Object({
  pk: t.Integer(),
  external_id: t.String(),
  federated_id: t.String({ description: "secret: the player's login id; store it only on the player's device" }),
  consent: Consent,
  consent_updated_at: t.Union([t.String(), t.Null()], { description: "when consent last changed, null while it never has" }),
});
export type PlayerBody = Static<typeof PlayerBody>;

export const PlayerList = t.Object({
  players: t.Array(t.Object({ pk: t.Integer(), federated_id: t.String() })),
  next: t.Union([t.String(), t.Null()], { description: "cursor for the next page, null on the last" }),
});
export type PlayerList = Static<typeof PlayerList>;

const ExportMessage = t.Object({
  role: t.Union([t.Literal("user"), t.Literal("assistant")], { description: "user: the child; assistant: the character" }),
  text: t.Union([t.String(), t.Null()], { description: "the words in the clear; null for a row that no longer opens (tampered with, or another key)" }),
  at: t.String({ description: "when it was stored, ISO 8601 UTC" }),
});

/** Everything hoot holds about one player (GET /api/players/{pk}/data). */
export const PlayerExport = t.Object({
  exported_at: t.String(),
  player: t.Object({
    pk: t.Integer(),
    external_id: t.String(),
    created_at: t.String(),
  }),
  consent: t.Object({ consent: Consent, updated_at: t.Union([t.String(), t.Null()]) }),
  history: t.Array(ExportMessage, { description: "the whole stored conversation, oldest first" }),
  memory: t.Array(t.Object({ role: t.String(), text: t.String() }), {
    description: "what the model is given of this player at the next turn: the newest messages of the history that fit HOOT_HISTORY_BUDGET_CHARS",
  }),
  incidents: t.Array(IncidentBody, { description: "safety incidents, newest first: never any words" }),
});
export type PlayerExport = Static<typeof PlayerExport>;

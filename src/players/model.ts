import { type Static, t } from "elysia";
import { IdSegment } from "../http/params.ts";

const ExternalId = t.String({
  minLength: 1,
  maxLength: 256,
  description: "the developer's own unique id for the player (e-mail, username, device id); not used for authentication",
});

export const CreatePlayerBody = t.Object({ external_id: ExternalId }, { additionalProperties: false });
export const EditPlayerBody = t.Object({ external_id: ExternalId }, { additionalProperties: false });
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
});
export type PlayerBody = Static<typeof PlayerBody>;

export const PlayerList = t.Object({
  players: t.Array(t.Object({ pk: t.Integer(), federated_id: t.String() })),
  next: t.Union([t.String(), t.Null()], { description: "cursor for the next page, null on the last" }),
});
export type PlayerList = Static<typeof PlayerList>;

import { t, type Static } from "elysia";
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

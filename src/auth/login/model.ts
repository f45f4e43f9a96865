import { t, type Static } from "elysia";

export const LoginBody = t.Object(
  {
    api_key: t.String({ minLength: 1, maxLength: 256, description: "developer key or service account key" }),
    federated_id: t.Optional(t.String({ minLength: 1, maxLength: 256, description: "the player's secret id (player login)" })),
    team_name: t.Optional(t.String({ minLength: 1, maxLength: 100, description: "selects the team when the developer is in several" })),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const LoginResponse = t.Object({
  access_token: t.String(),
  expires_in: t.Integer(),
  token_type: t.Literal("Bearer"),
});
export type LoginResponse = Static<typeof LoginResponse>;

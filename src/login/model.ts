import { type Static, t } from "elysia";

// The hosted engine's SDKs send every field, as null (Python) or "" (Unity) when unset: both mean absent.
// Any string is the right type: one that is not a working credential is a 401, never a 400.
const Text = (description: string) => t.Optional(t.Union([t.String(), t.Null()], { description }));

export const LoginBody = t.Object(
  {
    api_key: Text("developer key, service account key or operator key; absent, null or empty answers 401"),
    federated_id: Text("the player's secret id (player login); null or empty means absent"),
    team_name: Text("selects the team when the developer is in several; null or empty means absent"),
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

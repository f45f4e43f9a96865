import { t, type Static } from "elysia";
import { IdSegment } from "../http/params.ts";

export const Permission = t.Union([t.Literal("playerLogin"), t.Literal("playerCreate")]);

export const CreateServiceAccountBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100 }),
    permissions: t.Optional(t.Array(Permission, { minItems: 1, maxItems: 2, uniqueItems: true, description: 'default ["playerLogin"]; add "playerCreate" for a backend key' })),
  },
  { additionalProperties: false },
);
export type CreateServiceAccountBody = Static<typeof CreateServiceAccountBody>;

export const ServiceAccountParams = t.Object({ pk: IdSegment });

export const ServiceAccountBody = t.Object({
  pk: t.Integer(),
  name: t.String(),
  permissions: t.Array(Permission),
  api_key: t.String({ description: "in full for login-only keys and at creation; masked for playerCreate keys in listings" }),
  created_at: t.String(),
});
export type ServiceAccountBody = Static<typeof ServiceAccountBody>;

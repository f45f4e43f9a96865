import { type Static, t } from "elysia";
import { IdSegment } from "../http/params.ts";

export const Permission = t.Union([t.Literal("playerLogin"), t.Literal("playerCreate")]);

export const CreateServiceAccountBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100 }),
    permissions: t.Optional(
      t.Array(Permission, { minItems: 1, maxItems: 2, uniqueItems: true, description: 'default ["playerLogin"]; add "playerCreate" for a backend key' }),
    ),
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

// The hosted engine's SDKs see service accounts as users whose user_type is playerLogin or playerCreate.
export const SdkUserType = t.Union([t.Literal("playerLogin"), t.Literal("playerCreate")]);

export const SdkServiceAccount = t.Object({ pk: t.Integer(), name: t.String(), user_type: SdkUserType, created_at: t.String() });
export type SdkServiceAccount = Static<typeof SdkServiceAccount>;

export const SdkServiceAccountList = t.Object({ service_accounts: t.Array(SdkServiceAccount) });

export const CreatedSdkServiceAccount = t.Object({
  pk: t.Integer(),
  name: t.String(),
  user_type: SdkUserType,
  api_key: t.String({ description: "shown in full this once" }),
});
export type CreatedSdkServiceAccount = Static<typeof CreatedSdkServiceAccount>;

/** The console API's request bodies and the Python SDK's single-sign-on bodies, as TypeBox schemas. */
import { t } from "elysia";
import { IdSegment } from "../http/params.ts";

export const KeySignInBody = t.Object(
  {
    api_key: t.String({ minLength: 1, maxLength: 256 }),
    team_name: t.Optional(t.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const SwitchTeamBody = t.Object({ team_pk: t.Integer({ minimum: 1 }) }, { additionalProperties: false });

export const InviteBody = t.Object({ email: t.String({ minLength: 3, maxLength: 254 }) }, { additionalProperties: false });

export const CreateKeyBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100 }),
    player_create: t.Optional(t.Boolean()),
  },
  { additionalProperties: false },
);

export const CreateTestPlayerBody = t.Object({ external_id: t.Optional(t.String({ maxLength: 256 })) }, { additionalProperties: false });

export const PlayersQuery = t.Object(
  {
    limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
    after: t.Optional(t.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const PkParams = t.Object({ pk: IdSegment });

/** A team safety policy: the safety-policies service validates it (400 `invalid_policy` naming the field). */
export const PolicyBody = t.Record(t.String(), t.Unknown());

/** A team policy's name in a path: the policy-name pattern, so `.` and `..` never reach a path. */
export const PolicyNameParams = t.Object({
  name: t.String({
    minLength: 1,
    maxLength: 64,
    pattern: "^[a-z0-9][a-z0-9_.-]*$",
    rule: 'a policy name of lower-case letters, digits, "_", "." or "-", starting with a letter or digit',
  }),
});

// --- the Python SDK's `login_with_google` (the path names stay for that client, whatever the provider) ---

export const SdkStartBody = t.Object(
  { redirect_uri: t.String({ minLength: 1, maxLength: 2048, description: "a loopback URL the SDK listens on, e.g. http://127.0.0.1:53121" }) },
  { additionalProperties: false },
);

export const SdkFinishBody = t.Object(
  {
    code: t.String({ minLength: 1, maxLength: 4096 }),
    state: t.String({ minLength: 1, maxLength: 512 }),
    team_name: t.Optional(
      t.String({ minLength: 1, maxLength: 100, description: "hoot extension: which team the token acts for (default: the developer's first team)" }),
    ),
  },
  { additionalProperties: false },
);

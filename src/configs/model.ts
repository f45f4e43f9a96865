import { type Static, t } from "elysia";

const NAME = "^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$";
const Name = t.String({
  pattern: NAME,
  rule: 'a name of 1 to 100 letters (upper or lower case), digits, "_", "." or "-", starting with a letter or digit',
  description: 'letters, digits, "_", "." and "-", starting with a letter or digit; "default" is reserved',
});
const Description = t.Optional(t.Union([t.String({ maxLength: 1000 }), t.Null()], { description: "a note for the team; null means none" }));

/** `{name}` or `{name}@v2` (`@2` and `@latest` also work) in a path. */
export const StoredParams = t.Object({
  name: t.String({
    pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}(@(v?[1-9][0-9]{0,8}|latest))?$",
    rule: 'a stored name (letters, digits, "_", "." or "-", starting with a letter or digit), optionally followed by @v2 or @latest',
    description: "a stored name, optionally with @v<version>",
  }),
});

export const CreateConfigBody = t.Object(
  {
    name: Name,
    config: t.Record(t.String(), t.Unknown(), { description: "a configuration, whole or partial; prompt, voice_profile and utilities may hold references" }),
    description: Description,
  },
  { additionalProperties: false },
);
export const PutConfigBody = t.Object({ config: CreateConfigBody.properties.config, description: Description }, { additionalProperties: false });

export const CreateUtilityBody = t.Object(
  {
    name: Name,
    utility: t.Record(t.String(), t.Unknown(), { description: 'a utility: {"type": "classify", ...} or {"type": "extract", ...}' }),
    description: Description,
  },
  { additionalProperties: false },
);
export const PutUtilityBody = t.Object({ utility: CreateUtilityBody.properties.utility, description: Description }, { additionalProperties: false });

const Version = {
  name: t.String(),
  version: t.Integer({ minimum: 1, description: "this version" }),
  latest_version: t.Integer({ minimum: 1 }),
  description: t.Union([t.String(), t.Null()]),
  created_at: t.String({ description: "when this version was stored" }),
};

export const StoredConfigBody = t.Object({ ...Version, config: t.Record(t.String(), t.Unknown()) });
export type StoredConfigBody = Static<typeof StoredConfigBody>;
export const StoredUtilityBody = t.Object({ ...Version, utility: t.Record(t.String(), t.Unknown()) });
export type StoredUtilityBody = Static<typeof StoredUtilityBody>;

export const StoredSummaryBody = t.Object({
  name: t.String(),
  latest_version: t.Integer({ minimum: 1 }),
  description: t.Union([t.String(), t.Null()]),
  created_at: t.String({ description: "when the first version was stored" }),
  updated_at: t.String({ description: "when the latest version was stored" }),
});
export type StoredSummaryBody = Static<typeof StoredSummaryBody>;

export const ConfigList = t.Object({ configs: t.Array(StoredSummaryBody) });
export const UtilityList = t.Object({ utilities: t.Array(StoredSummaryBody) });

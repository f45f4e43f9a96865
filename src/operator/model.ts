import { t } from "elysia";

export const SettingsBody = t.Object({
  settings: t.Record(t.String(), t.Unknown(), { description: 'every setting by snake_case name; secret values read "[set]" (or null when unset)' }),
});

/**
 * The deployment's settings as the operator may see them: every setting under its snake_case name, with
 * secret values replaced. A setting is treated as secret by its name (ending in key, secret, password, token
 * or credentials), so a secret setting added later is hidden without anyone remembering to list it here;
 * credentials written into a URL (`https://user:pass@host`) are removed too.
 */
import type { Config } from "../config.ts";

export type SettingValue = string | number | boolean | null | SettingValue[] | { [name: string]: SettingValue };

const SECRET_NAME = /(key|secret|password|token|credentials?)$/i;

/** `config` with secret values replaced by "[set]" (or null when empty), keyed by snake_case name. */
export function visibleSettings(config: Config): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = Object.create(null);
  for (const [name, value] of Object.entries(config) as [string, unknown][]) out[snakeCase(name)] = visible(name, value);
  return out;
}

function visible(name: string, value: unknown): SettingValue {
  if (SECRET_NAME.test(name)) return value === null || value === undefined || value === "" ? null : "[set]";
  if (typeof value === "string") return withoutUrlCredentials(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => visible("", item));
  if (typeof value === "object" && value !== undefined) {
    const out: Record<string, SettingValue> = Object.create(null);
    for (const [key, inner] of Object.entries(value)) out[snakeCase(key)] = visible(key, inner);
    return out;
  }
  return null;
}

function withoutUrlCredentials(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, "$1");
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

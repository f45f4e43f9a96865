/**
 * The session's configuration rules beyond its schema: merging a partial configuration, the checks that
 * need to know what this server offers (voices, safety policies, utilities), and the part the engine reads.
 * User-supplied names are only ever looked up by value or in Maps, and merged objects are built with
 * Object.fromEntries, so a key such as "__proto__" or "constructor" stays an ordinary key (and is refused by
 * the schema) instead of reaching an object's prototype.
 */
import { DEFAULT_SAFETY_POLICY } from "../engine/safety/index.ts";
import type { TurnConfig } from "../engine/types.ts";
import type { SessionConfig } from "./model.ts";

/**
 * Deep-merges `patch` into `base` (objects merge, everything else replaces; null removes a key, except
 * `safety_policy`, where null is a value). Neither input is changed.
 * @example deepMerge({ prompt: "a", voice_profile: { speed: 1 } }, { voice_profile: { pitch: 1.2 } })
 */
export function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = new Map(Object.entries(base));
  for (const [key, value] of Object.entries(patch)) {
    const current = out.get(key);
    if (value === null && key !== "safety_policy") out.delete(key);
    else if (isPlainObject(value) && isPlainObject(current)) out.set(key, deepMerge(current, value));
    else out.set(key, value);
  }
  // fromEntries defines own properties: a "__proto__" key stays a key.
  return Object.fromEntries(out);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The name a configuration's `safety_policy` gives, or null for the default. */
function policyName(config: SessionConfig): string | null {
  const policy = config.safety_policy;
  return typeof policy === "string" ? policy : (policy?.reference ?? null);
}

/**
 * Checks what the schema cannot: known voices (the safety policy is resolved within the player's team by the
 * session's guard, safety.ts; utility definitions are checked before the schema, configure.ts). A sentence
 * naming the field, or null.
 * @example validateConfiguration({ prompt: "x", voice_profile: { voice_id: "darth" } }, ["slt"]) // 'field "config.voice_profile.voice_id": unknown voice "darth" ...'
 */
export function validateConfiguration(config: SessionConfig, voices: readonly string[]): string | null {
  const voice = config.voice_profile?.voice_id;
  if (voice !== undefined && !voices.includes(voice)) {
    return `field "config.voice_profile.voice_id": unknown voice "${voice}" (available: ${voices.join(", ")})`;
  }
  return null;
}

/** The part of a checked configuration the engine reads, with the defaults filled in. */
export function turnConfig(config: SessionConfig): TurnConfig {
  return {
    prompt: config.prompt,
    temperature: config.temperature,
    voice_profile: config.voice_profile,
    audio_format: config.audio_format ?? "mp3",
    language_code: config.language_code ?? "en",
    safety_policy: policyName(config) ?? DEFAULT_SAFETY_POLICY,
  };
}

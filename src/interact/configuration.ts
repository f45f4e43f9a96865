/**
 * The session's configuration rules beyond its schema: merging a partial configuration, the defaults an
 * interact inherits, and the part the engine reads (voices of this server, speed in range).
 * User-supplied names are only ever looked up by value or in Maps, and merged objects are built with
 * Object.fromEntries, so a key such as "__proto__" or "constructor" stays an ordinary key (and is refused by
 * the schema) instead of reaching an object's prototype.
 *
 * Choices for the hosted engine's clients (README "Moving from the hosted engine"): "default" and "" name
 * hoot's defaults; another provider's voice profile is accepted and only `voice_id` (when it is one of this
 * server's voices) and `speed` (clamped) apply; the configuration's `context`, `audio_output`, `language_code`
 * and utility lists are defaults that each interact may override.
 */

import type { Context, MarksWanted, TurnConfig, VoiceProfile } from "../engine/index.ts";
import { DEFAULT_SAFETY_POLICY } from "../engine/index.ts";
import type { RequestOf, SessionConfig } from "./model.ts";

/**
 * Deep-merges `patch` into `base` (objects merge, everything else replaces; null removes a key). Neither
 * input is changed.
 * @example deepMerge({ prompt: "a", voice_profile: { speed: 1 } }, { voice_profile: { pitch: 1.2 } })
 */
export function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = new Map(Object.entries(base));
  for (const [key, value] of Object.entries(patch)) {
    const current = out.get(key);
    if (value === null) out.delete(key);
    else if (isPlainObject(value) && isPlainObject(current)) out.set(key, deepMerge(current, value));
    else out.set(key, value);
  }
  // fromEntries defines own properties: a "__proto__" key stays a key.
  return Object.fromEntries(out);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Names that mean "hoot's default" wherever a name or reference is expected. */
function isDefaultName(name: string): boolean {
  return name === "" || name === "default";
}

/** The policy a configuration's `safety_policy` names, or null for the default ("default", "" or none). */
function policyName(config: SessionConfig): string | null {
  const policy = config.safety_policy;
  const name = typeof policy === "string" ? policy : (policy?.reference ?? null);
  return name === null || isDefaultName(name) ? null : name;
}

/** hoot's speed range; another provider's speed is clamped into it. */
export const SPEED_RANGE = { min: 0.7, max: 1.2 } as const;

/**
 * The voice the engine uses: a voice of this server (else the default), speed clamped into SPEED_RANGE, and
 * 0 meaning "unset" for speed and pitch (C# clients send 0 for fields the app never set).
 * @example engineVoice({ provider: "elevenlabs", voice_id: "21m00Tcm4TlvDq8ikWAM", speed: 1.5 }, ["slt"]) // { speed: 1.2 }
 */
export function engineVoice(profile: SessionConfig["voice_profile"], voices: readonly string[]): VoiceProfile | undefined {
  if (!profile) return undefined;
  const voice: VoiceProfile = {};
  if (profile.voice_id !== undefined && voices.includes(profile.voice_id)) voice.voice_id = profile.voice_id;
  if (profile.speed) voice.speed = Math.min(SPEED_RANGE.max, Math.max(SPEED_RANGE.min, profile.speed));
  if (profile.pitch) voice.pitch = Math.max(0.5, profile.pitch);
  return voice;
}

/** What one interact asks for, with the configuration's defaults filled in (the interact's own fields win). */
export interface InteractSettings {
  text: string;
  context: Context;
  audioOutput: boolean;
  languageCode: string;
  /** The speech marks this turn wants on its audio. */
  marks: MarksWanted;
}

/**
 * Resolves an interact against the configuration: the configuration's `context` with the interact's merged
 * over it, and `audio_output` and `language_code` defaulting to the configuration's (the utility lists are
 * planned by configure.ts).
 * @example interactSettings({ prompt: "x", context: { a: 1 } }, { text: "hi", context: { b: 2 } }).context // { a: 1, b: 2 }
 */
export function interactSettings(config: SessionConfig, request: Omit<RequestOf<"interact">, "type" | "kind" | "uid">): InteractSettings {
  const language = request.language_code || config.language_code || "en";
  return {
    text: request.text ?? "",
    context: engineContext({ ...config.context, ...request.context }),
    audioOutput: request.audio_output ?? config.audio_output ?? true,
    languageCode: language,
    marks: { subtitles: request.subtitles ?? config.subtitles ?? false, visemes: request.visemes ?? config.visemes ?? false },
  };
}

/** Context values as the engine takes them: lists and objects become their JSON text. */
function engineContext(context: NonNullable<SessionConfig["context"]>): Context {
  return Object.fromEntries(Object.entries(context).map(([key, value]) => [key, typeof value === "object" ? JSON.stringify(value) : value]));
}

/**
 * The part of a checked configuration the engine reads, with the defaults filled in.
 * @example turnConfig({ prompt: "x", safety_policy: "default" }, ["slt"], "en").safety_policy // "children_strict"
 */
export function turnConfig(config: SessionConfig, voices: readonly string[], languageCode: string): TurnConfig {
  return {
    prompt: config.prompt,
    temperature: config.temperature,
    voice_profile: engineVoice(config.voice_profile, voices),
    audio_format: config.audio_format ?? "mp3",
    language_code: languageCode,
    safety_policy: policyName(config) ?? DEFAULT_SAFETY_POLICY,
  };
}

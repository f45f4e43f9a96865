/**
 * Resolves the references in a configuration, at `set_configuration` / `merge_configuration` time, against
 * what the player's team has stored (`/api/configs`, `/api/utilities`):
 *
 *   config: {"reference": "name"}              the whole configuration is the stored configuration `name`
 *   prompt: {"reference": "name@v2"}           the `prompt` of version 2 of stored configuration `name`
 *   voice_profile: {"reference": "name"}       the `voice_profile` of stored configuration `name`
 *   utilities: {"x": {"reference": "name"}}    the stored utility `name` (a plain string means the same)
 *
 * A reference is `name`, `name@v2` (or `name@2`) or `name@latest`; without a version it means the latest.
 * `"default"` and `""` mean hoot's default: the default prompt for a prompt or a whole configuration, no
 * voice profile (the default voice), no utility. Stored configurations may themselves hold references (to
 * stored utilities, or another configuration's prompt), resolved the same way up to MAX_DEPTH deep.
 * `safety_policy` references are left as they are, for the safety policies' own resolution.
 *
 * Rules it keeps: the lookup only ever sees the caller's team (another team's names are simply unknown);
 * an unknown name or version is an `unknown_reference` error naming the field; the resolved object is built
 * from Maps and Object.fromEntries, so user-supplied names never reach a prototype.
 */
export type StoredKind = "config" | "utility";

/** What the caller's team has stored under a name: that version, or (found false) the latest version or null. */
export type StoredFind = { found: true; version: number; body: unknown } | { found: false; latest: number | null };

/** Looks a name up in the caller's team only. `version` null means the latest. */
export type StoredLookup = (kind: StoredKind, name: string, version: number | null) => StoredFind | Promise<StoredFind>;

export type Resolution = { ok: true; value: unknown } | { ok: false; error: string; code: "unknown_reference" | "invalid_configuration" };

/** Names a team may store (and refer to): a letter or digit, then letters, digits, `_`, `.`, `-`. */
export const STORED_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
/** Names that mean hoot's default and cannot be stored. */
export const RESERVED_NAMES = new Set(["default"]);
/** The prompt of hoot's default configuration. */
export const DEFAULT_PROMPT = "You are Hoot, a friendly owl who loves to chat, play and tell stories with children.";
const MAX_DEPTH = 4;

/** A parsed reference: hoot's default, or a name and a version (null: the latest). Null when it is not a reference. */
export function parseReference(text: string): "default" | { name: string; version: number | null } | null {
  const trimmed = text.trim();
  if (trimmed === "" || RESERVED_NAMES.has(trimmed)) return "default";
  const match = /^([^@]+?)(?:@(?:v?(\d{1,9})|(latest)))?$/.exec(trimmed);
  if (!match || !STORED_NAME.test(match[1] as string)) return null;
  const version = match[2] === undefined ? null : Number(match[2]);
  if (version === 0) return null;
  return { name: match[1] as string, version };
}

/** True for `{"reference": <string>}` and nothing else. */
export function isReference(value: unknown): value is { reference: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "reference" && typeof (value as { reference: unknown }).reference === "string";
}

class Failure extends Error {
  constructor(
    readonly sentence: string,
    readonly code: "unknown_reference" | "invalid_configuration" = "unknown_reference",
  ) {
    super(sentence);
  }
}

/**
 * `raw` (a whole configuration or a partial one) with every reference replaced by what it names.
 * @example await resolveConfiguration({ prompt: { reference: "owl@v2" } }, lookup) // { ok: true, value: { prompt: "You are Ollie..." } }
 */
export async function resolveConfiguration(raw: unknown, lookup: StoredLookup | null): Promise<Resolution> {
  try {
    return { ok: true, value: await new Resolver(lookup).whole(raw) };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, error: error.sentence, code: error.code };
    throw error;
  }
}

class Resolver {
  constructor(private readonly lookup: StoredLookup | null) {}

  async whole(raw: unknown): Promise<unknown> {
    if (isReference(raw)) return this.configuration(raw.reference, "config", "", 0);
    return isPlainObject(raw) ? this.fields(raw, "config", "", 0) : raw;
  }

  /** One configuration object with its field references resolved. `inside` names the stored object, for errors. */
  private async fields(config: Record<string, unknown>, path: string, inside: string, depth: number): Promise<Record<string, unknown>> {
    const out = new Map(Object.entries(config));
    const prompt = out.get("prompt");
    if (isReference(prompt)) out.set("prompt", await this.field(prompt.reference, "prompt", `${path}.prompt`, inside, depth, DEFAULT_PROMPT));
    const voice = out.get("voice_profile");
    if (isReference(voice)) {
      const value = await this.field(voice.reference, "voice_profile", `${path}.voice_profile`, inside, depth, undefined);
      if (value === undefined) out.delete("voice_profile");
      else out.set("voice_profile", value);
    }
    const utilities = out.get("utilities");
    if (isPlainObject(utilities)) {
      const resolved = new Map<string, unknown>();
      for (const [name, value] of Object.entries(utilities)) {
        const ref = typeof value === "string" ? value : isReference(value) ? value.reference : null;
        resolved.set(name, ref === null ? value : await this.utility(ref, `${path}.utilities.${name}`, inside));
      }
      out.set("utilities", Object.fromEntries(resolved));
    }
    // fromEntries defines own properties: a "__proto__" key stays a key (and the schema refuses it).
    return Object.fromEntries(out);
  }

  /** The field `field` of the stored configuration `text` refers to (`fallback` for "default"). */
  private async field(text: string, field: string, path: string, inside: string, depth: number, fallback: unknown): Promise<unknown> {
    const parsed = this.parse(text, path, inside);
    if (parsed === "default") return fallback;
    const config = await this.configuration(text, path, inside, depth);
    if (!Object.hasOwn(config, field) || config[field] === undefined || config[field] === null) {
      throw new Failure(`field "${path}"${where(inside)}: stored configuration "${text}" has no ${field}`);
    }
    return config[field];
  }

  /** The stored configuration `text` refers to, with its own references resolved. */
  private async configuration(text: string, path: string, inside: string, depth: number): Promise<Record<string, unknown>> {
    const parsed = this.parse(text, path, inside);
    if (parsed === "default") return { prompt: DEFAULT_PROMPT };
    if (depth >= MAX_DEPTH)
      throw new Failure(
        `field "${path}"${where(inside)}: references nest more than ${MAX_DEPTH} deep (does a stored configuration refer to itself?)`,
        "invalid_configuration",
      );
    const body = await this.find("config", parsed, path, inside);
    if (!isPlainObject(body))
      throw new Failure(`field "${path}"${where(inside)}: stored configuration "${text}" is not a configuration object`, "invalid_configuration");
    return this.fields(body, "config", `stored configuration "${text}"`, depth + 1);
  }

  /** The stored utility `text` refers to (null for "default": no utility). */
  private async utility(text: string, path: string, inside: string): Promise<unknown> {
    const parsed = this.parse(text, path, inside);
    if (parsed === "default") return null;
    return this.find("utility", parsed, path, inside);
  }

  private parse(text: string, path: string, inside: string): "default" | { name: string; version: number | null } {
    const parsed = parseReference(text);
    if (parsed === null)
      throw new Failure(
        `field "${path}"${where(inside)}: ${JSON.stringify(text)} is not a reference (use "name", "name@v2" or "name@latest")`,
        "invalid_configuration",
      );
    return parsed;
  }

  private async find(kind: StoredKind, ref: { name: string; version: number | null }, path: string, inside: string): Promise<unknown> {
    const what = kind === "config" ? "configuration" : "utility";
    const found = this.lookup ? await this.lookup(kind, ref.name, ref.version) : ({ found: false, latest: null } as const);
    if (found.found) return found.body;
    if (found.latest === null) throw new Failure(`field "${path}"${where(inside)}: no stored ${what} "${ref.name}" in this team`);
    throw new Failure(`field "${path}"${where(inside)}: stored ${what} "${ref.name}" has no version ${ref.version} (the latest is ${found.latest})`);
  }
}

function where(inside: string): string {
  return inside ? ` (in ${inside})` : "";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

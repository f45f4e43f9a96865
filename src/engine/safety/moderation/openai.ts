/**
 * An OpenAI-compatible `/v1/moderations` endpoint: POST {model, input} answers
 * `{results: [{flagged, categories: {"self-harm": true, ...}}]}`. Each flagged category name is mapped to a
 * hoot category; names it does not know are ignored unless the result is flagged with none known, which
 * counts as `custom` (fail towards holding the text).
 */
import type { Category, Direction } from "../detect/categories.ts";
import { ModerationError, type ModerationProvider, type ModerationSettings } from "./types.ts";

// A Map, not an object: category names come from the provider, and an object would find "constructor" or "__proto__".
const MAP = new Map<string, Category>([
  ["sexual", "sexual"],
  ["sexual/minors", "sexual"],
  ["harassment", "bullying"],
  ["harassment/threatening", "bullying"],
  ["hate", "hate"],
  ["hate/threatening", "hate"],
  ["illicit", "drugs"],
  ["illicit/violent", "weapons"],
  ["self-harm", "self_harm"],
  ["self-harm/intent", "self_harm"],
  ["self-harm/instructions", "self_harm"],
  ["violence", "violence"],
  ["violence/graphic", "violence"],
]);

interface ModerationResponse {
  results?: { flagged?: boolean; categories?: Record<string, boolean | null> }[];
}

export class OpenAiModeration implements ModerationProvider {
  readonly name = "openai";
  constructor(private readonly settings: ModerationSettings) {}

  async moderate(text: string, _direction: Direction, signal: AbortSignal): Promise<Category[]> {
    const res = await fetch(`${this.settings.baseUrl.replace(/\/+$/, "")}/moderations`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.settings.model, input: text }),
      signal,
    });
    if (!res.ok) throw new ModerationError(`moderation endpoint answered ${res.status}`, res.status);
    const body = (await res.json().catch(() => null)) as ModerationResponse | null;
    const result = body?.results?.[0];
    if (!result || typeof result !== "object") throw new ModerationError("moderation endpoint answered without results");
    const found = new Set<Category>();
    for (const [name, on] of Object.entries(result.categories ?? {})) {
      const category = MAP.get(name);
      if (on === true && category) found.add(category);
    }
    if (result.flagged === true && found.size === 0) found.add("custom");
    return [...found];
  }
}

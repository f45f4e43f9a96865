/**
 * A guard model through chat completions (e.g. Llama Guard 3 served by Ollama or vLLM): the text is sent as
 * the conversation to classify (the child's message as `user`; a reply sentence as `assistant` after the
 * child's message) and the model answers "safe" or "unsafe" then a line of hazard codes ("S1,S10").
 * Codes map to hoot categories; an "unsafe" with no code it knows counts as `custom`. Anything else is an error.
 */
import type { Category, Direction } from "../detect/categories.ts";
import { ModerationError, type ModerationProvider, type ModerationSettings } from "./types.ts";

/** Llama Guard 3 hazard categories (MLCommons taxonomy). */
const CODES: Record<string, Category | null> = {
  S1: "violence",
  S2: "drugs",
  S3: "sexual",
  S4: "sexual",
  S5: "bullying",
  S6: null,
  S7: "personal_info",
  S8: null,
  S9: "weapons",
  S10: "hate",
  S11: "self_harm",
  S12: "sexual",
  S13: null,
  S14: "jailbreak",
};

interface ChatResponse {
  choices?: { message?: { content?: string | null } }[];
}

export class GuardModeration implements ModerationProvider {
  readonly name = "guard";
  constructor(private readonly settings: ModerationSettings) {}

  async moderate(text: string, direction: Direction, signal: AbortSignal, context?: string): Promise<Category[]> {
    const messages =
      direction === "input"
        ? [{ role: "user", content: text }]
        : [
            { role: "user", content: context || "Hello!" },
            { role: "assistant", content: text },
          ];
    const res = await fetch(`${this.settings.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.settings.model, messages, temperature: 0, max_tokens: 20, stream: false }),
      signal,
    });
    if (!res.ok) throw new ModerationError(`guard model answered ${res.status}`, res.status);
    const body = (await res.json().catch(() => null)) as ChatResponse | null;
    const content = body?.choices?.[0]?.message?.content?.trim().toLowerCase();
    if (!content) throw new ModerationError("guard model answered without content");
    if (content.startsWith("safe")) return [];
    if (!content.startsWith("unsafe")) throw new ModerationError("guard model answered neither safe nor unsafe");
    const found = new Set<Category>();
    for (const code of content.toUpperCase().match(/S\d{1,2}/g) ?? []) {
      const mapped = CODES[code];
      if (mapped) found.add(mapped);
    }
    // S6, S8 and S13 (advice, IP, elections) are not child-safety categories; anything else unknown holds the text.
    const codes = content.toUpperCase().match(/S\d{1,2}/g) ?? [];
    if (found.size === 0 && codes.some((c) => CODES[c] === undefined)) found.add("custom");
    if (found.size === 0 && codes.length === 0) found.add("custom");
    return [...found];
  }
}

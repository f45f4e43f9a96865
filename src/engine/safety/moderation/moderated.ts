/**
 * The built-in rules combined with a moderation model, with a timeout that fails safe.
 *
 * Rules it keeps:
 * - the rules run first; when they already intervene (redirect, escalate, drop, replace) the model is not asked;
 * - the model only ever sees redacted text (personal information never leaves for a third party);
 * - a model that is slow (past `timeoutMs`), failing or unreadable never lets text through: an input is
 *   answered with the fallback line (notice `moderation` / `redirect`), an output sentence is replaced by
 *   the fallback line and the reply ends (notice `moderation` / `block`);
 * - the turn's own signal cancels the request.
 */
import type { Category } from "../detect/categories.ts";
import type { CheckOptions, CompiledPolicy, InputVerdict, OutputVerdict } from "../policy/compiled.ts";
import type { ModerationProvider } from "./types.ts";

export interface ModeratedOptions extends CheckOptions {
  signal?: AbortSignal;
  /** The child's redacted message, when checking a reply sentence. */
  context?: string;
}

/** A policy's checks with a moderation model behind them (async). */
export interface ModeratedChecker {
  readonly policy: CompiledPolicy;
  checkInput(text: string, options?: ModeratedOptions): Promise<InputVerdict>;
  checkOutput(sentence: string, options?: ModeratedOptions): Promise<OutputVerdict>;
}

/** Observes provider failures (log the provider and reason, never the text). */
export type ModerationFailure = (error: unknown, direction: "input" | "output") => void;

/**
 * Wraps a compiled policy with a moderation provider; `provider` null gives the rules alone (still async).
 * @example const checker = moderated(policy, new OpenAiModeration(settings), 1500)
 */
export function moderated(policy: CompiledPolicy, provider: ModerationProvider | null, timeoutMs: number, onFailure?: ModerationFailure): ModeratedChecker {
  async function ask(text: string, direction: "input" | "output", options: ModeratedOptions): Promise<Category[] | null> {
    if (!provider) return [];
    const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
    try {
      return await provider.moderate(text, direction, AbortSignal.any(signals), options.context);
    } catch (error) {
      onFailure?.(error, direction);
      return null;
    }
  }
  return {
    policy,
    async checkInput(text, options = {}) {
      const rules = policy.checkInput(text, options);
      if (rules.action === "redirect" || rules.action === "escalate" || !provider) return rules;
      const categories = await ask(rules.text, "input", options);
      if (categories === null) {
        return { ...rules, action: "redirect", reply: policy.fallbackLine(text), notices: [...rules.notices, { category: "moderation", action: "redirect" }] };
      }
      if (categories.length === 0) return rules;
      const merged = [...new Set([...rules.intercepted, ...categories])];
      return policy.decideInput(rules.text, merged, rules.redacted, options.stance, text);
    },
    async checkOutput(sentence, options = {}) {
      const rules = policy.checkOutput(sentence, options);
      if (rules.action === "drop" || rules.action === "replace" || !provider) return rules;
      const categories = await ask(rules.text, "output", options);
      if (categories === null) {
        return {
          action: "replace",
          text: policy.fallbackLine(sentence),
          end: true,
          notices: [...rules.notices, { category: "moderation", action: "block" }],
          incident: null,
          intercepted: rules.intercepted,
        };
      }
      if (categories.length === 0) return rules;
      return policy.decideOutput(sentence, rules.text, [...new Set([...rules.intercepted, ...categories])], options.stance);
    },
  };
}

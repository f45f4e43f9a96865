/**
 * The `local` language model provider: NOT an AI. It is a deterministic, rule-based stand-in with no model
 * weights, for development, tests and demos offline. It picks a reply from keyword rules and templates (see
 * compose.ts), speaks as the character named in the prompt, and streams the reply token by token at
 * `tokensPerSecond` so the rest of the pipeline behaves as it would with a real model.
 */
import type { LlmProvider, LlmRequest } from "../types.ts";
import { composeReply } from "./compose.ts";
import { paceTokens, splitTokens } from "./pace.ts";
import { readSituation } from "./situation.ts";

export interface LocalLlmOptions {
  /** Tokens streamed per second; 0 streams everything at once with no timers (benchmarks). */
  tokensPerSecond: number;
}

/**
 * The offline stand-in provider.
 * @example const llm = createLocalLlm({ tokensPerSecond: 30 })
 */
export function createLocalLlm(options: LocalLlmOptions): LlmProvider {
  return {
    name: "local",
    stream(request: LlmRequest): AsyncIterable<string> {
      if (request.signal.aborted) return paceTokens([], 0, request.signal);
      const text = composeReply(readSituation(request));
      return paceTokens(splitTokens(text), options.tokensPerSecond, request.signal);
    },
    close: async () => {},
  };
}

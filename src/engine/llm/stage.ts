/**
 * The language model as a pipeline stage: the provider's stream with the first-token and stall deadlines
 * enforced, retried once when it fails before its first token.
 */
import type { LlmError } from "./errors.ts";
import { streamWithRetry } from "./retry.ts";
import { type StreamTimeouts, streamWithTimeouts } from "./timeouts.ts";
import type { LlmProvider, LlmRequest } from "./types.ts";

/**
 * Tokens of the reply; throws LlmError after the retry is spent, ends quietly on abort.
 * @example for await (const token of llmStage(llm, request, { firstTokenMs: 15000, stallMs: 10000 })) ...
 */
export function llmStage(
  llm: LlmProvider,
  request: LlmRequest,
  timeouts: StreamTimeouts,
  onRetry?: (error: LlmError) => void,
  onFirstToken?: () => void,
): AsyncIterable<string> {
  return streamWithRetry(() => streamWithTimeouts(llm, request, timeouts), { signal: request.signal, onRetry, onFirstToken });
}

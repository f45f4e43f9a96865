/**
 * Turns a failure inside a turn into the `interaction_error` event. The sentences are written for the app
 * developer and are safe to show: they never carry a provider's message, a URL or a key.
 */
import { LlmError } from "./llm/errors.ts";
import { TtsError } from "./tts/types.ts";
import type { TurnEvent } from "./types.ts";

export type InteractionError = Extract<TurnEvent, { event: "interaction_error" }>;

/**
 * The event for `error`: llm_timeout, llm_unavailable, tts_failed, or engine_error for anything unexpected.
 * @example toInteractionError(new LlmError("stalled", "timeout", true)).code === "llm_timeout"
 */
export function toInteractionError(error: unknown): InteractionError {
  if (error instanceof LlmError) {
    if (error.category === "timeout") {
      return { event: "interaction_error", code: "llm_timeout", error: "The language model took too long to answer. Please try again." };
    }
    return { event: "interaction_error", code: "llm_unavailable", error: "The language model is not available right now. Please try again in a moment." };
  }
  if (error instanceof TtsError) {
    return { event: "interaction_error", code: "tts_failed", error: "The voice could not be produced for this reply." };
  }
  return { event: "interaction_error", code: "engine_error", error: "Something went wrong while answering. Please try again." };
}

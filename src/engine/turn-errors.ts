/**
 * Turns a failure inside a turn into its error frame. The sentences are written for the app developer and
 * are safe to show: they never carry a provider's message, a URL or a key.
 */
import type { ErrorFrame } from "./frames.ts";
import { LlmError } from "./llm/errors.ts";
import { TtsError } from "./tts/types.ts";

/**
 * The frame for `error`: llm_timeout, llm_unavailable, tts_failed, or engine_error for anything unexpected.
 * @example toErrorFrame(new LlmError("stalled", "timeout", true)).code === "llm_timeout"
 */
export function toErrorFrame(error: unknown): ErrorFrame {
  if (error instanceof LlmError) {
    if (error.category === "timeout") {
      return { type: "error", code: "llm_timeout", error: "The language model took too long to answer. Please try again." };
    }
    return { type: "error", code: "llm_unavailable", error: "The language model is not available right now. Please try again in a moment." };
  }
  if (error instanceof TtsError) {
    return { type: "error", code: "tts_failed", error: "The voice could not be produced for this reply." };
  }
  return { type: "error", code: "engine_error", error: "Something went wrong while answering. Please try again." };
}

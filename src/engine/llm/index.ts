/** Language models: the provider contract, the local stand-in, the OpenAI-compatible client, timeouts and the retry. */

export { isRetryableCategory, LlmError, type LlmErrorCategory, toLlmError } from "./errors.ts";
export { createLocalLlm, type LocalLlmOptions } from "./local/index.ts";
export { createOpenAiLlm, type OpenAiLlmOptions } from "./openai.ts";
export { type RetryOptions, streamWithRetry } from "./retry.ts";
export { llmStage } from "./stage.ts";
export { type StreamTimeouts, streamWithTimeouts } from "./timeouts.ts";
export type { ChatMessage, LlmProvider, LlmRequest } from "./types.ts";

/** Language models: the provider contract, the local stand-in, the OpenAI-compatible client, timeouts and the retry. */
export type { ChatMessage, LlmProvider, LlmRequest } from "./types.ts";
export { LlmError, toLlmError, isRetryableCategory, type LlmErrorCategory } from "./errors.ts";
export { streamWithTimeouts, type StreamTimeouts } from "./timeouts.ts";
export { streamWithRetry, type RetryOptions } from "./retry.ts";
export { createOpenAiLlm, type OpenAiLlmOptions } from "./openai.ts";
export { createLocalLlm, type LocalLlmOptions } from "./local/index.ts";
export { llmStage } from "./stage.ts";

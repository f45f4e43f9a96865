/** Chooses the language model provider named by the settings. */
import type { Config } from "../../config.ts";
import { createLocalLlm } from "./local/index.ts";
import { createOpenAiLlm } from "./openai.ts";
import type { LlmProvider } from "./types.ts";

/**
 * The provider for `config.llmProvider`: "local" (offline stand-in, the default) or "openai" (any compatible server).
 * @example const llm = createLlmProvider(loadConfig())
 */
export function createLlmProvider(config: Pick<Config, "llmProvider" | "llmBaseUrl" | "llmApiKey" | "llmModel" | "localTokensPerSecond">): LlmProvider {
  switch (config.llmProvider) {
    case "openai":
      return createOpenAiLlm({ baseUrl: config.llmBaseUrl, apiKey: config.llmApiKey, model: config.llmModel });
    case "local":
      return createLocalLlm({ tokensPerSecond: config.localTokensPerSecond });
  }
}

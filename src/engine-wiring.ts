/**
 * Builds the turn engine the settings ask for: the language model (HOOT_LLM_PROVIDER) and the speech
 * provider (HOOT_TTS_PROVIDER) behind the pipeline in src/engine.
 */
import type { Config } from "./config.ts";
import type { Logger } from "./log.ts";
import type { Engine } from "./engine/types.ts";
import { createEngine, createLlmProvider } from "./engine/index.ts";
import { createTtsProvider, LocalSpeechProvider } from "./engine/tts/index.ts";

/** The engine for `config`. */
export async function buildEngine(config: Config, logger: Logger): Promise<Engine> {
  const tts = createTtsProvider(
    {
      provider: config.ttsProvider,
      workers: config.ttsWorkers,
      timeoutMs: config.ttsTimeoutMs,
      maxTurns: config.ttsMaxTurns,
      maxLagMs: config.ttsMaxLagMs,
      baseUrl: config.ttsBaseUrl,
      apiKey: config.ttsApiKey,
      model: config.ttsModel,
    },
    logger.child({ component: "tts" }),
  );
  // Warm the speech workers in the background, so the first child does not wait for the engine to compile.
  if (tts instanceof LocalSpeechProvider) {
    tts.ready().catch((error: unknown) => logger.error({ event: "tts_unavailable", err: (error as Error).message }, "speech engine failed to start"));
  }
  return createEngine({ config, llm: createLlmProvider(config), tts, logger: logger.child({ component: "engine" }) });
}

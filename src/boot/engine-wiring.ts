/**
 * The one place that maps the app's settings onto the engine: it chooses the language model
 * (HOOT_LLM_PROVIDER), the speech provider (HOOT_TTS_PROVIDER) and the safety moderation model
 * (HOOT_MODERATION_PROVIDER), and fills the engine's own options. Nothing in src/engine reads settings.
 * It also connects the engine's and the speech provider's observers to the Prometheus metrics (src/metrics.ts).
 */
import type { Config } from "../config.ts";
import type { ModerationProvider } from "../engine/index.ts";
import {
  createEngine,
  createLocalLlm,
  createLocalUtilityModel,
  createModeration,
  createOpenAiLlm,
  createOpenAiUtilityModel,
  createTtsProvider,
  type Engine,
  type LlmProvider,
  LocalSpeechProvider,
  type TtsObserver,
  type TurnObserver,
  type UtilityModel,
} from "../engine/index.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";

/** The engine for `config`; with `metrics`, every turn and sentence is measured there. */
export async function buildEngine(config: Config, logger: Logger, metrics?: Metrics): Promise<Engine> {
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
      observer: metrics ? speechObserver(metrics) : undefined,
    },
    logger.child({ component: "tts" }),
  );
  // Warm the speech workers in the background, so the first child does not wait for the engine to compile.
  if (tts instanceof LocalSpeechProvider) {
    tts.ready().catch((error: unknown) => logger.error({ event: "tts_unavailable", err: (error as Error).message }, "speech engine failed to start"));
  }
  return createEngine({
    llm: createLlm(config),
    tts,
    logger: logger.child({ component: "engine" }),
    historyBudgetChars: config.historyBudgetChars,
    promptBudgetChars: config.promptBudgetChars,
    llmTimeouts: { firstTokenMs: config.llmFirstTokenTimeoutMs, stallMs: config.llmStallTimeoutMs },
    utilities: createUtilityModel(config),
    utilityTimeoutMs: config.utilityTimeoutMs,
    observer: metrics ? turnObserver(metrics) : undefined,
  });
}

/**
 * The engine's turn timings and outcomes as Prometheus metrics.
 * @example createEngine({ llm, tts, observer: turnObserver(createMetrics()) })
 */
export function turnObserver(metrics: Metrics): TurnObserver {
  return {
    firstToken: (ms) => metrics.llmFirstToken.observe(ms / 1000),
    firstText: (ms) => metrics.turnFirstText.observe(ms / 1000),
    firstAudio: (ms) => metrics.turnFirstAudio.observe(ms / 1000),
    finished: (outcome) => metrics.turns.inc({ outcome }),
  };
}

/**
 * The speech provider's queue wait, synthesis time and admissions as Prometheus metrics.
 * @example createTtsProvider({ observer: speechObserver(createMetrics()) })
 */
export function speechObserver(metrics: Metrics): TtsObserver {
  return {
    queued: (waitMs) => metrics.speechQueueWait.observe(waitMs / 1000),
    synthesized: (workMs) => metrics.speechSynthesis.observe(workMs / 1000),
    admission: (admitted) => metrics.speechAdmissions.inc({ result: admitted ? "admitted" : "refused" }),
  };
}

/**
 * The utility model for the language model provider: side calls to the same OpenAI-compatible server
 * (HOOT_UTILITY_MODEL, else HOOT_LLM_MODEL), or the local deterministic rules.
 * @example const utilities = createUtilityModel(loadConfig())
 */
export function createUtilityModel(config: Pick<Config, "llmProvider" | "llmBaseUrl" | "llmApiKey" | "llmModel" | "utilityModel">): UtilityModel {
  switch (config.llmProvider) {
    case "openai":
      return createOpenAiUtilityModel({ baseUrl: config.llmBaseUrl, apiKey: config.llmApiKey, model: config.utilityModel || config.llmModel });
    case "local":
      return createLocalUtilityModel();
  }
}

/**
 * The language model `config.llmProvider` names: "local" (offline stand-in, the default) or "openai" (any compatible server).
 * @example const llm = createLlm(loadConfig())
 */
export function createLlm(config: Pick<Config, "llmProvider" | "llmBaseUrl" | "llmApiKey" | "llmModel" | "localTokensPerSecond">): LlmProvider {
  switch (config.llmProvider) {
    case "openai":
      return createOpenAiLlm({ baseUrl: config.llmBaseUrl, apiKey: config.llmApiKey, model: config.llmModel });
    case "local":
      return createLocalLlm({ tokensPerSecond: config.localTokensPerSecond });
  }
}

/**
 * The moderation model behind the safety rules (HOOT_MODERATION_PROVIDER: none, openai or guard) and the
 * time after which a check fails safe (the text is held, never passed).
 * @example const { provider, timeoutMs } = buildModeration(loadConfig())
 */
export function buildModeration(
  config: Pick<Config, "moderationProvider" | "moderationBaseUrl" | "moderationApiKey" | "moderationModel" | "moderationTimeoutMs">,
): { provider: ModerationProvider | null; timeoutMs: number } {
  return { provider: createModeration(config), timeoutMs: config.moderationTimeoutMs };
}

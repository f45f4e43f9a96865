/**
 * The Engine (contract in types.ts): one `runTurn` per interaction, the voice list for configuration checks,
 * and `close` for shutdown. Holds no per-player state: the caller passes history in and stores what it wants.
 * It takes its own small options object; src/engine-wiring.ts maps the app's settings onto it.
 */
import type { LlmProvider } from "./llm/types.ts";
import type { StreamTimeouts } from "./llm/timeouts.ts";
import { silentLogger, type EngineLogger } from "./logger.ts";
import { turnSafetyStage, type SafetyStage } from "./safety/index.ts";
import type { TtsProvider } from "./tts/types.ts";
import { runTurn } from "./turn.ts";
import type { Engine } from "./types.ts";

export interface EngineOptions {
  llm: LlmProvider;
  /** Null: no audio is produced (the `complete` frame still says audio was asked for). */
  tts: TtsProvider | null;
  logger?: EngineLogger;
  /** The safety stage (default: the output gate driven by each turn's `TurnInput.safety`). */
  safety?: SafetyStage;
  /** Characters of remembered conversation the model sees (default 6000). */
  historyBudgetChars?: number;
  /** Characters of prompt in all; long context values and old history are cut to fit (default 24000). */
  promptBudgetChars?: number;
  /** How long to wait for the model's first token and between tokens (default 15 s and 10 s). */
  llmTimeouts?: StreamTimeouts;
}

/**
 * Builds the engine. It owns `llm` and `tts` from then on: `close()` closes them.
 * @example const engine = createEngine({ llm: createLocalLlm({ tokensPerSecond: 30 }), tts: null })
 */
export function createEngine(options: EngineOptions): Engine {
  const logger = options.logger ?? silentLogger;
  const deps = {
    llm: options.llm,
    tts: options.tts,
    safety: options.safety ?? turnSafetyStage,
    historyBudgetChars: options.historyBudgetChars ?? 6000,
    promptBudgetChars: options.promptBudgetChars,
    llmTimeouts: options.llmTimeouts ?? { firstTokenMs: 15_000, stallMs: 10_000 },
  };
  let turns = 0;
  let closing: Promise<void> | null = null;
  return {
    runTurn: (input) => runTurn(input, { ...deps, logger: logger.child({ turn: ++turns }) }),
    voices: () => options.tts?.voices() ?? [],
    close: () => {
      closing ??= Promise.allSettled([options.llm.close(), options.tts?.close()]).then(() => {});
      return closing;
    },
  };
}

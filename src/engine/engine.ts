/**
 * The Engine (contract in types.ts): one `runTurn` per interaction, the voice list for configuration checks,
 * and `close` for shutdown. Holds no per-player state: the caller passes history in and stores what it wants.
 * It takes its own small options object; src/boot/engine-wiring.ts maps the app's settings onto it.
 */

import type { StreamTimeouts } from "./llm/timeouts.ts";
import type { LlmProvider } from "./llm/types.ts";
import { type EngineLogger, silentLogger } from "./logger.ts";
import type { TurnObserver } from "./observer.ts";
import { type SafetyStage, turnSafetyStage } from "./safety/index.ts";
import type { TtsProvider } from "./tts/types.ts";
import { runTurn } from "./turn.ts";
import type { Engine, TurnInput } from "./types.ts";
import {
  createLocalUtilityModel,
  hasUtilities,
  runStandalone,
  turnUtilityChecker,
  type UtilityChecker,
  type UtilityModel,
  withUtilities,
} from "./utilities/index.ts";

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
  /** Answers utilities (default: the local deterministic rules). */
  utilities?: UtilityModel;
  /** Deadline of one utility call (default 10 s). */
  utilityTimeoutMs?: number;
  /** The safety checks utilities go through for a turn or a policy name (default: the turn's own output check, else the built-in policy of that name). */
  utilityChecker?: (policyName: string, input?: TurnInput) => UtilityChecker;
  /** Sees every turn's timings and ending (first token, first text, first audio, outcome), for metrics. */
  observer?: TurnObserver;
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
    observer: options.observer,
  };
  const utilities = {
    model: options.utilities ?? createLocalUtilityModel(),
    timeoutMs: options.utilityTimeoutMs ?? 10_000,
    checker: options.utilityChecker ?? turnUtilityChecker,
  };
  let turns = 0;
  let closing: Promise<void> | null = null;
  return {
    runTurn: (input) => {
      const turnLogger = logger.child({ turn: ++turns });
      // A turn without utilities is the pipeline itself: no extra generator hop per frame.
      if (!hasUtilities(input.config.utilities)) return runTurn(input, { ...deps, logger: turnLogger });
      return withUtilities(input, { ...utilities, logger: turnLogger }, (inner) => runTurn(inner, { ...deps, logger: turnLogger }));
    },
    runUtilities: (request) => runStandalone(request, { ...utilities, logger: logger.child({ utilities: "run" }) }),
    voices: () => options.tts?.voices() ?? [],
    close: () => {
      closing ??= Promise.allSettled([options.llm.close(), options.tts?.close()]).then(() => {});
      return closing;
    },
  };
}

/**
 * The Engine the interact socket uses (contract in types.ts): one `runTurn` per interaction, the voice list
 * for configuration checks, and `close` for shutdown. Holds no per-player state: the socket passes history.
 */
import pino from "pino";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { LlmProvider } from "./llm/types.ts";
import { passThroughSafety, type SafetyStage } from "./safety/index.ts";
import type { TtsProvider } from "./tts/types.ts";
import { runTurn } from "./turn.ts";
import type { Engine } from "./types.ts";

export interface EngineDeps {
  config: Config;
  llm: LlmProvider;
  /** Null: no audio is produced (audio_complete is still sent when audio was asked for). */
  tts: TtsProvider | null;
  logger?: Logger;
  /** The safety stage; pass-through until a policy exists. */
  safety?: SafetyStage;
}

/**
 * Builds the engine. It owns `llm` and `tts` from then on: `close()` closes them.
 * @example const engine = createEngine({ config, llm: createLlmProvider(config), tts, logger })
 */
export function createEngine(deps: EngineDeps): Engine {
  const logger = deps.logger ?? pino({ level: "silent" });
  const safety = deps.safety ?? passThroughSafety;
  let turns = 0;
  let closing: Promise<void> | null = null;
  return {
    runTurn: (input) => runTurn(input, { config: deps.config, llm: deps.llm, tts: deps.tts, safety, logger: logger.child({ turn: ++turns }) }),
    voices: () => deps.tts?.voices() ?? [],
    close: () => {
      closing ??= Promise.allSettled([deps.llm.close(), deps.tts?.close()]).then(() => {});
      return closing;
    },
  };
}

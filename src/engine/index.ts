/**
 * The turn engine: prompt assembly -> language model -> chunker -> safety -> speech -> events.
 *
 * @example
 *   const engine = createEngine({ config, llm: createLlmProvider(config), tts, logger });
 *   for await (const event of engine.runTurn(input)) send(event);
 */
export { createEngine, type EngineDeps } from "./engine.ts";
export { runTurn, type TurnDeps } from "./turn.ts";
export { toInteractionError, type InteractionError } from "./turn-errors.ts";
export type { TextFrame, SpeechFrame, NoticeFrame, ReplyFrame, AudioFrame, OutputFrame } from "./frames.ts";
export * from "./llm/index.ts";
export { SentenceChunker, chunkStage, type ChunkerOptions } from "./chunker/index.ts";
export { assemblePrompt, fillTemplate, trimHistory, findCharacter, isSpeakFirst, PREAMBLE, type AssembledPrompt, type PromptInput, type Character } from "./prompt/index.ts";
export { passThroughSafety, type SafetyStage, type SafetyTurn } from "./safety/index.ts";
export { speechStage, speakableText, type SpeechOptions } from "./speech/index.ts";
export { Channel, childController, sleep } from "./pipeline/index.ts";
export type { Engine, TurnInput, TurnEvent, TurnConfig, Context, ContextValue, HistoryMessage, VoiceProfile, AudioFormat } from "./types.ts";

/**
 * The turn engine, a library with no knowledge of the app around it: it imports nothing from src/config.ts,
 * src/interact or any feature folder. One turn is prompt assembly -> language model -> chunker -> safety ->
 * speech, and comes out as typed frames (frames.ts).
 *
 * @example
 *   const engine = createEngine({ llm: createLocalLlm({ tokensPerSecond: 30 }), tts: null });
 *   for await (const frame of engine.runTurn(input)) if (frame.type === "text") show(frame.text);
 */

export { type ChunkerOptions, chunkStage, SentenceChunker } from "./chunker/index.ts";
export { createEngine, type EngineOptions } from "./engine.ts";
export type {
  AudioFrame,
  CompleteFrame,
  DataFrame,
  ErrorFrame,
  FrameMarks,
  NoticeFrame,
  ReplyFrame,
  SpeechFrame,
  TextFrame,
  TurnErrorCode,
  TurnFrame,
} from "./frames.ts";
export { TURN_ERROR_CODES } from "./frames.ts";
export * from "./llm/index.ts";
export { type EngineLogger, silentLogger } from "./logger.ts";
export { notify, type TurnObserver, type TurnOutcome } from "./observer.ts";
export { Channel, childController, sleep, untilAborted } from "./pipeline/index.ts";
export {
  type AssembledPrompt,
  assemblePrompt,
  type Character,
  fillTemplate,
  findCharacter,
  isSpeakFirst,
  PREAMBLE,
  type PromptInput,
  trimHistory,
} from "./prompt/index.ts";
// Types only: the rules library itself loads lazily (safety/lazy.ts), never through this index.
export type { CompiledPolicy, Incident, ModeratedChecker, Notice, PolicyRef, SessionSafety, TeamPolicyBody, TeamPolicyRow } from "./safety/checks.ts";
export {
  builtinPolicyEntries,
  DEFAULT_SAFETY_POLICY,
  findSafetyPolicy,
  passThroughSafety,
  SAFETY_POLICIES,
  type SafetyPolicyInfo,
  type SafetyStage,
  type SafetyTurn,
  safetyLibrary,
  safetyPolicyNames,
  scriptedReply,
  type TurnSafety,
  turnSafetyStage,
  warmUpSafetyLater,
} from "./safety/index.ts";
export { createModeration } from "./safety/moderation/create.ts";
export type { ModerationProvider } from "./safety/moderation/types.ts";
export { isSpeakable, type SpeechOptions, speakableText, speechStage } from "./speech/index.ts";
export { createTtsProvider, FLITE_VOICES, LocalSpeechProvider, OPENAI_VOICES, type TtsObserver } from "./tts/index.ts";
export { type SentenceMarks, sliceMarks } from "./tts/marks/timeline.ts";
export { runTurn, type TurnDeps } from "./turn.ts";
export { toErrorFrame } from "./turn-errors.ts";
export type { AudioFormat, Context, ContextValue, Engine, HistoryMessage, MarksWanted, TurnConfig, TurnInput, VoiceProfile } from "./types.ts";
export * from "./utilities/index.ts";
export { type SpeechMarks, type SubtitleMark, VISEMES, type Viseme, type VisemeMark } from "./vocabulary.ts";
export { InvalidAudio, VoiceInputError } from "./voice-in/errors.ts";
export { createSttProvider, NoSttProvider } from "./voice-in/stt.ts";

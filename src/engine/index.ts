/**
 * The turn engine, a library with no knowledge of the app around it: it imports nothing from src/config.ts,
 * src/interact or any feature folder. One turn is prompt assembly -> language model -> chunker -> safety ->
 * speech, and comes out as typed frames (frames.ts).
 *
 * @example
 *   const engine = createEngine({ llm: createLocalLlm({ tokensPerSecond: 30 }), tts: null });
 *   for await (const frame of engine.runTurn(input)) if (frame.type === "text") show(frame.text);
 */
export { createEngine, type EngineOptions } from "./engine.ts";
export { runTurn, type TurnDeps } from "./turn.ts";
export { toErrorFrame } from "./turn-errors.ts";
export { TURN_ERROR_CODES } from "./frames.ts";
export type { TextFrame, SpeechFrame, NoticeFrame, DataFrame, ReplyFrame, AudioFrame, ErrorFrame, CompleteFrame, TurnFrame, TurnErrorCode } from "./frames.ts";
export { silentLogger, type EngineLogger } from "./logger.ts";
export { notify, type TurnObserver, type TurnOutcome } from "./observer.ts";
export * from "./llm/index.ts";
export { SentenceChunker, chunkStage, type ChunkerOptions } from "./chunker/index.ts";
export { assemblePrompt, fillTemplate, trimHistory, findCharacter, isSpeakFirst, PREAMBLE, type AssembledPrompt, type PromptInput, type Character } from "./prompt/index.ts";
export { passThroughSafety, turnSafetyStage, scriptedReply, SAFETY_POLICIES, DEFAULT_SAFETY_POLICY, findSafetyPolicy, safetyPolicyNames, type SafetyStage, type SafetyTurn, type TurnSafety, type SafetyPolicyInfo } from "./safety/index.ts";
export * from "./utilities/index.ts";
export { speechStage, speakableText, isSpeakable, type SpeechOptions } from "./speech/index.ts";
export { Channel, childController, sleep, untilAborted } from "./pipeline/index.ts";
export type { Engine, TurnInput, TurnConfig, Context, ContextValue, HistoryMessage, VoiceProfile, AudioFormat } from "./types.ts";
export { createTtsProvider, LocalSpeechProvider, FLITE_VOICES, OPENAI_VOICES, type TtsObserver } from "./tts/index.ts";
export { createModeration } from "./safety/moderation/create.ts";
export type { ModerationProvider } from "./safety/moderation/types.ts";
export { safetyLibrary, warmUpSafetyLater, builtinPolicyEntries } from "./safety/index.ts";
// Types only: the rules library itself loads lazily (safety/lazy.ts), never through this index.
export type { CompiledPolicy, Incident, ModeratedChecker, Notice, PolicyRef, SessionSafety, TeamPolicyBody, TeamPolicyRow } from "./safety/checks.ts";
export { VoiceInputError, InvalidAudio } from "./voice-in/errors.ts";
export { createSttProvider, NoSttProvider } from "./voice-in/stt.ts";

/**
 * The engine's contract with whoever runs it (the interact socket, a benchmark, a test).
 *
 * The caller owns the session: who the player is, the configuration, storing history, the wire.
 * The engine owns one turn: prompt assembly -> language model -> chunker -> safety -> speech -> frames.
 * It yields TurnFrame values (frames.ts) and knows nothing of websockets, JSON or base64.
 */
import type { TurnFrame } from "./frames.ts";
import type { TurnSafety } from "./safety/safety-stage.ts";
import type { UtilityPlan, UtilityRunRequest, UtilityRunResult } from "./utilities/types.ts";
import type { AudioFormat, Context, HistoryMessage, VoiceProfile } from "./vocabulary.ts";

export type { AudioFormat, Context, ContextValue, HistoryMessage, VoiceProfile } from "./vocabulary.ts";

/** The parts of the session configuration the engine reads (already validated by the caller). */
export interface TurnConfig {
  prompt: string;
  temperature?: number;
  voice_profile?: VoiceProfile;
  audio_format: AudioFormat;
  language_code: string;
  /** The safety policy's name (see safety/policies.ts); the safety stage reads it per turn. */
  safety_policy: string;
  /** The utilities this turn runs on its input, beside it and on its output (utilities/hooks.ts). */
  utilities?: UtilityPlan;
}

/** Which speech marks a turn wants on its audio frames. */
export interface MarksWanted {
  subtitles: boolean;
  visemes: boolean;
}

export interface TurnInput {
  /** The child's words; "." means "speak without new input". */
  text: string;
  context: Context;
  config: TurnConfig;
  /** The player's stored conversation, oldest first; the engine trims it to its budget. */
  history: HistoryMessage[];
  audioOutput: boolean;
  /** Word timings (`subtitles`) and mouth shapes (`visemes`) on each audio frame; absent: neither. */
  marks?: MarksWanted;
  /** Aborted on interrupt, a new interact, socket close or shutdown. */
  signal: AbortSignal;
  /** When the caller received the request (performance.now()); the turn's timings count from here (default: the turn's start). */
  receivedAt?: number;
  /** The caller's safety policy for this turn: gates the reply sentence by sentence (absent: not checked). */
  safety?: TurnSafety;
  /** A reply already decided (a safety policy's redirect line): said instead of calling the model. */
  reply?: string;
}

export interface Engine {
  /**
   * Runs one turn. Yields fragments, audio, notices and data, then one `complete` or one `error` frame.
   * Once `input.signal` aborts it yields nothing more and ends promptly, without throwing.
   */
  runTurn(input: TurnInput): AsyncIterable<TurnFrame>;
  /** Runs utilities outside a turn (the `run` request); never rejects for a utility's failure. */
  runUtilities(request: UtilityRunRequest): Promise<UtilityRunResult>;
  /** Names of the voices `voice_profile.voice_id` may take (for configuration checks). */
  voices(): string[];
  /** Frees workers and connections. */
  close(): Promise<void>;
}

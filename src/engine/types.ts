/**
 * The contract between the interact socket (src/interact) and the turn engine (src/engine).
 *
 * The socket owns the session: who the player is, the configuration, sending, backpressure, history storage.
 * The engine owns one turn: prompt assembly -> language model -> chunker -> [safety] -> [speech] -> events.
 * The socket sends `interaction_started` itself, forwards every TurnEvent in order, and always ends with
 * `interaction_complete` (unless an `interaction_error` was forwarded) and the stream `close`.
 */

/** Values allowed in an interact `context`. */
export type ContextValue = string | number | boolean;
export type Context = Record<string, ContextValue>;

export interface VoiceProfile {
  voice_id?: string;
  speed?: number;
  pitch?: number;
}

export type AudioFormat = "mp3" | "pcm16";

/** The parts of the session configuration the engine reads (already validated by the socket). */
export interface TurnConfig {
  prompt: string;
  temperature?: number;
  voice_profile?: VoiceProfile;
  audio_format: AudioFormat;
  language_code: string;
}

/** One remembered message of the player's conversation, oldest first. */
export interface HistoryMessage {
  role: "user" | "assistant";
  text: string;
}

export interface TurnInput {
  /** The child's words; "." means "speak without new input". */
  text: string;
  context: Context;
  config: TurnConfig;
  /** The player's stored conversation, oldest first; the engine trims it to its budget. */
  history: HistoryMessage[];
  audioOutput: boolean;
  /** Aborted on interrupt, a new interact, socket close or shutdown. */
  signal: AbortSignal;
}

/** Events of one turn, in the order they must be sent. Field names are the wire names (PROTOCOL.md section 2). */
export type TurnEvent =
  | { event: "text"; text: string }
  | { event: "audio"; audio: string; mime_type: string; sample_rate: number; seq: number; text: string }
  | { event: "safety_policy"; category: string; action: string }
  | { event: "data"; data: Record<string, unknown> }
  | { event: "text_complete"; text: string }
  | { event: "audio_complete" }
  | { event: "interaction_error"; error: string; code: string };

export interface Engine {
  /** Runs one turn. Stops promptly (without throwing) once `input.signal` is aborted. Never throws for provider failures: they become `interaction_error`. */
  runTurn(input: TurnInput): AsyncIterable<TurnEvent>;
  /** Names of the voices `voice_profile.voice_id` may take (for set_configuration validation). */
  voices(): string[];
  /** Frees workers and connections. */
  close(): Promise<void>;
}

/**
 * The engine's words that everything else is built from: the context a turn is asked in, a remembered message,
 * a voice, an audio format and a chunk of audio. It imports nothing, so frames, the engine's contract, the safety
 * seam, the speech providers and the utilities can all name these without naming each other (no type circle).
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

/** One remembered message of the player's conversation, oldest first. */
export interface HistoryMessage {
  role: "user" | "assistant";
  text: string;
}

export interface AudioChunk {
  /** Whole MP3 frames (a whole sentence's stream), or raw little-endian 16-bit mono samples for pcm16. */
  data: Uint8Array;
  mimeType: string;
  sampleRate: number;
}

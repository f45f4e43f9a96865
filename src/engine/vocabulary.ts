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
  /** Word and mouth timings of this chunk's audio, when the request asked for them (SpeechRequest.marks). */
  marks?: SpeechMarks;
}

/** The 15 visemes of the Oculus/Meta lip-sync set, which Unity and web avatar kits read. */
export const VISEMES = ["sil", "PP", "FF", "TH", "DD", "kk", "CH", "SS", "nn", "RR", "aa", "E", "I", "O", "U"] as const;
export type Viseme = (typeof VISEMES)[number];

/** One word as the turn's text writes it (punctuation and markup attached), timed from the start of its message's audio (seconds). */
export interface SubtitleMark {
  text: string;
  start_time_sec: number;
  duration_sec: number;
}

/** One mouth shape, timed from the start of its message's audio; a message's visemes tile it from 0 to its end. */
export interface VisemeMark {
  viseme: Viseme;
  start_time_sec: number;
  duration_sec: number;
}

/**
 * The marks of one audio chunk: `engine` when they come from the speech engine's own segment timings,
 * `estimated` when the provider gave none. Shaped as they go on the wire, so any adapter can send them as is.
 */
export interface SpeechMarks {
  marks: "engine" | "estimated";
  subtitles: SubtitleMark[];
  visemes: VisemeMark[];
}

/**
 * Text-to-speech providers. A provider turns one sentence into one self-contained audio stream and delivers it
 * in chunks that each decode on their own: for MP3 the whole sentence is one stream of MPEG-1 Layer III frames
 * (44.1 kHz mono, no CRC, no ID3 tag) sent as one chunk; for pcm16, chunks of about 200 ms of samples.
 *
 * Capacity: a turn that wants speech first asks `admit()` for a ticket and passes it with each of its sentences,
 * so the provider knows when the listener needs each sentence (the first one now, the next one when the audio
 * before it has played) and can refuse a turn up front when it cannot keep up, instead of failing it halfway.
 */
import type { AudioChunk, AudioFormat, VoiceProfile } from "../vocabulary.ts";

export type { AudioChunk } from "../vocabulary.ts";

export interface SpeechRequest {
  text: string;
  voice: VoiceProfile;
  format: AudioFormat;
  signal: AbortSignal;
  /** Also time the words and mouth shapes of this sentence (AudioChunk.marks); off by default, at no cost. */
  marks?: boolean;
  /**
   * The sentence as the turn writes it, when `text` is its speakable form (markup removed): the marks' words
   * are its whitespace-separated tokens, timed by how `text` is spoken. Default: `text`.
   */
  written?: string;
  /**
   * The turn's ticket from `admit()`. With it, sentences of one turn are served in order and each is scheduled
   * for when the listener will need it (the first one now, the next one when the audio before it has played).
   */
  ticket?: SpeechTicket;
  /**
   * Without a ticket: when this sentence's audio is needed, on the `performance.now()` clock (default: now).
   * Ignored when a ticket is given, which knows better.
   */
  due?: number;
}

/** A turn's reservation of speech capacity. */
export interface SpeechTicket {
  /** Gives the capacity back. Call it once when the turn ends, however it ends; later calls do nothing. */
  release(): void;
}

export interface TtsProvider {
  readonly name: string;
  /** Voice ids accepted in `voice_profile.voice_id`; the first is the default. */
  voices(): string[];
  /**
   * Reserves speech for one turn, or returns null when the provider cannot serve another real-time voice now
   * (the turn should then go ahead without audio and say so up front). Absent: capacity is not limited.
   * @example const ticket = tts.admit?.() ?? null
   */
  admit?(): SpeechTicket | null;
  /** Synthesizes one sentence; work starts at once, before iteration. Stops quietly once `signal` aborts. Throws TtsError on failure. */
  synthesize(request: SpeechRequest): AsyncIterable<AudioChunk>;
  close(): Promise<void>;
}

/**
 * Hooks for metrics, called synchronously and cheaply; every one is optional.
 * @example createTtsProvider({ observer: { queued: (ms) => queueWait.observe(ms / 1000) } })
 */
export interface TtsObserver {
  /** A sentence waited `waitMs` in the speech queue before synthesis began (local engine only). */
  queued?(waitMs: number): void;
  /** A sentence's synthesis (and encoding) took `workMs` of work for `audioSeconds` of audio. */
  synthesized?(workMs: number, audioSeconds: number): void;
  /** A turn asked for speech and was admitted, or refused because speech capacity is short. */
  admission?(admitted: boolean): void;
}

export class TtsError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "TtsError";
  }
}

/**
 * Text-to-speech providers. A provider turns one sentence into one self-contained audio stream
 * (for MP3: its own MP3 stream of whole MPEG-1 Layer III frames, no ID3 tag), delivered in chunks of
 * whole frames (about 100-300 ms of audio each) so each chunk can be sent as one `audio` event.
 */
import type { AudioFormat, VoiceProfile } from "../types.ts";

export interface SpeechRequest {
  text: string;
  voice: VoiceProfile;
  format: AudioFormat;
  signal: AbortSignal;
  /**
   * When this sentence's audio is needed, on the `performance.now()` clock (default: now). Providers with a
   * queue serve the earliest first, so a turn's first clause is not stuck behind other turns' later sentences.
   */
  due?: number;
}

export interface AudioChunk {
  /** Whole MP3 frames, or raw little-endian 16-bit mono samples for pcm16. */
  data: Uint8Array;
  mimeType: string;
  sampleRate: number;
}

export interface TtsProvider {
  readonly name: string;
  /** Voice ids accepted in `voice_profile.voice_id`; the first is the default. */
  voices(): string[];
  /** Synthesizes one sentence. Stops without throwing once `signal` aborts. Throws TtsError on failure. */
  synthesize(request: SpeechRequest): AsyncIterable<AudioChunk>;
  close(): Promise<void>;
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

/**
 * Voice input on one interact socket: the session's side of `add_audio`, `clear_audio`, `check_turn`,
 * `transcribe` and an `interact` without text (src/engine/voice-in is the library; this file is where a
 * session uses it).
 *
 * Data model: per session, at most one VoiceBuffer (decoded 16 kHz samples of what was sent since the last
 * clear, in memory only) and one audio budget, both made on the first `add_audio`; per server, one recogniser
 * (voicePorts, built once after the server listens).
 *
 * Rules it keeps:
 * - the codecs and the voice activity detector load on the first `add_audio` of the process (importing them
 *   costs ~50-80 ms, which must not delay start-up);
 * - audio is dropped by clear(), by take() (the interact that uses it) and by close() (the socket is gone,
 *   also when the player was deleted); a snapshot handed to a turn lives only as long as its transcription;
 * - buffered audio in which the detector heard no speech is never sent to the recogniser: it answers "" (a
 *   Whisper model asked to transcribe silence or noise invents words, such as "Thank you for watching");
 * - nothing here logs audio or transcripts: only byte counts, durations and timings.
 */

import type { EngineLogger } from "../engine/index.ts";
import { createSttProvider, InvalidAudio, NoSttProvider, VoiceInputError } from "../engine/index.ts";
import type { AddResult, AudioBudget, AudioChunkConfig, SttConfig, SttProvider, VoiceBuffer, VoiceBufferSettings } from "../engine/voice-in/index.ts";
import type { ErrorCode } from "../errors.ts";

/** What a session needs from the server for voice input. */
export interface VoicePorts {
  /** The server's recogniser (one for every session). */
  stt(): SttProvider;
  /** True when the recogniser sends audio to another host than loopback (data-lite mode may not use it). */
  leavesMachine?(): boolean;
  buffer: VoiceBufferSettings;
  /** The per-socket audio budget: audio seconds per second of wall clock, and the burst. */
  budget: { secondsPerSecond: number; burstSeconds: number };
}

/** Voice input without a recogniser, at the default settings (sessions built without the app: unit tests). */
export const NO_RECOGNISER: VoicePorts = {
  stt: () => new NoSttProvider(),
  buffer: { maxSeconds: 60, maxBytes: 8 * 1024 * 1024, silenceMs: 700, vadMode: 3 },
  budget: { secondsPerSecond: 2, burstSeconds: 60 },
};

/** The voice settings of the server configuration (the HOOT_STT_*, HOOT_VAD_*, HOOT_AUDIO_* and HOOT_WS_AUDIO_* fields). */
export interface VoiceConfig extends SttConfig {
  audioBufferSeconds: number;
  audioBufferBytes: number;
  vadSilenceMs: number;
  vadMode: number;
  wsAudioSecondsPerSecond: number;
  wsAudioBurstSeconds: number;
}

/**
 * The server's voice ports. The recogniser is built once, on a timer after the server starts listening (or
 * by the first request that needs it, if that comes first), and named in the log.
 * @example const voice = voicePorts(config, logger)
 */
export function voicePorts(config: VoiceConfig, logger: EngineLogger): VoicePorts {
  let stt: SttProvider | null = null;
  const build = (): SttProvider => {
    if (stt) return stt;
    stt = createSttProvider(config, logger.child({ module: "stt" }));
    logger.info({ event: "voice_input_ready", recogniser: stt.name }, "voice input: speech recogniser chosen");
    return stt;
  };
  // Off the path to listening: a timer fires only once start-up has returned to the event loop.
  const timer = setTimeout(build, 0);
  (timer as { unref?: () => void }).unref?.();
  return {
    stt: build,
    leavesMachine: () => build().name === "openai" && !isLoopbackUrl(config.sttBaseUrl),
    buffer: { maxSeconds: config.audioBufferSeconds, maxBytes: config.audioBufferBytes, silenceMs: config.vadSilenceMs, vadMode: config.vadMode },
    budget: { secondsPerSecond: config.wsAudioSecondsPerSecond, burstSeconds: config.wsAudioBurstSeconds },
  };
}

/**
 * True when `url` names this machine: localhost, 127.0.0.0/8 or ::1 (anything else, or a URL that does not
 * parse, counts as outside).
 * @example isLoopbackUrl("http://127.0.0.1:9000/v1") // true
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The library, loaded once per process on first use. */
type Library = typeof import("../engine/voice-in/index.ts");
let library: Promise<Library> | null = null;
function voiceLibrary(): Promise<Library> {
  library ??= import("../engine/voice-in/index.ts");
  return library;
}

let live = 0;

/** Session audio buffers in memory now, in this process (each is dropped with its socket). */
export function liveVoiceBuffers(): number {
  return live;
}

/** Voice requests answer a value, or a sentence and one of the voice error codes. */
export type VoiceOutcome<T> = { ok: true; value: T } | { ok: false; error: string; code: ErrorCode };

/** Buffered audio taken for one transcription: held only until the recogniser has it. */
export interface Heard {
  wav: Uint8Array;
  /** The detector heard speech somewhere in it. */
  heardSpeech: boolean;
  /** Audio length, ms. */
  audioMs: number;
}

/** What the child said, as the turn uses it. */
export interface Spoken {
  /** The recogniser's text, trimmed ("" when it heard no words). */
  transcript: string;
  /** The child's words for the turn: the transcript cut to `maxChars`, or "." when it is empty (the character carries on). */
  text: string;
  /** Audio transcribed, ms; time the recogniser took, ms. */
  audioMs: number;
  sttMs: number;
}

export class SessionVoice {
  private buffer: VoiceBuffer | null = null;
  private budget: AudioBudget | null = null;
  private closed = false;

  constructor(private readonly ports: VoicePorts) {}

  /**
   * Decodes one `add_audio` chunk into the buffer. Base64 is read leniently (line breaks and other
   * whitespace are ignored: the Python SDK sends `base64.encodebytes`, a line every 76 characters).
   * @example await voice.add(msg.audio, msg.config) // { ok: true, value: { speechStarted, turn, … } }
   */
  async add(audio: string, config: AudioChunkConfig | undefined): Promise<VoiceOutcome<AddResult>> {
    const bytes = decodeBase64(audio);
    if (!bytes) return refused(new InvalidAudio('field "audio" is not base64'));
    try {
      const buffer = await this.open();
      if (!buffer) return refused(new InvalidAudio("the session is closed"));
      return { ok: true, value: await buffer.add(bytes, config, this.budget ?? undefined) };
    } catch (error) {
      if (error instanceof VoiceInputError) return refused(error);
      throw error;
    }
  }

  /** Drops every buffered sample (clear_audio, interrupt). Always succeeds. */
  clear(): void {
    this.buffer?.clear();
  }

  /** What `check_turn` answers: false before any audio or speech. */
  isUserStillSpeaking(): boolean {
    return this.buffer?.turn().isUserStillSpeaking ?? false;
  }

  /** Whether any audio is buffered (waits for chunks still decoding). */
  async hasAudio(): Promise<boolean> {
    if (!this.buffer) return false;
    await this.buffer.settled();
    return this.buffer.durationMs > 0;
  }

  /**
   * The buffered audio as a 16 kHz mono WAV, and whether speech was heard in it; `consume` clears the
   * buffer (an interact without text). Null when nothing is buffered.
   */
  async snapshot(consume: boolean): Promise<Heard | null> {
    const buffer = this.buffer;
    if (!buffer) return null;
    await buffer.settled();
    const heardSpeech = buffer.turn().heardSpeech;
    const audioMs = buffer.durationMs;
    const wav = consume ? await buffer.take() : await buffer.wav();
    return wav ? { wav, heardSpeech, audioMs } : null;
  }

  /**
   * The words in `heard` (the recogniser is not asked when no speech was heard). Throws VoiceInputError.
   * @example (await voice.transcribe(heard, "en", 4000, signal)).text
   */
  async transcribe(heard: Heard, languageCode: string, maxChars: number, signal?: AbortSignal): Promise<Spoken> {
    const started = performance.now();
    const transcript = heard.heardSpeech ? (await this.ports.stt().transcribe({ wav: heard.wav, languageCode, signal })).text.trim() : "";
    const text = transcript === "" ? "." : transcript.slice(0, maxChars);
    return { transcript, text, audioMs: heard.audioMs, sttMs: performance.now() - started };
  }

  /** Drops the audio and frees the detector and decoders (the socket is gone). */
  close(): void {
    this.closed = true;
    if (!this.buffer) return;
    this.buffer.close();
    this.buffer = null;
    live--;
  }

  private async open(): Promise<VoiceBuffer | null> {
    if (this.buffer) return this.buffer;
    const lib = await voiceLibrary();
    const buffer = await lib.VoiceBuffer.create(this.ports.buffer);
    // The socket may have closed while the library loaded.
    if (this.closed) {
      buffer.close();
      return null;
    }
    this.buffer = buffer;
    live++;
    this.budget = new lib.AudioBudget(this.ports.budget.secondsPerSecond, this.ports.budget.burstSeconds);
    return buffer;
  }
}

/** A voice failure as the wire reports it. */
export function voiceFailure(error: VoiceInputError): { error: string; code: ErrorCode } {
  // Every VoiceErrorCode is one of the wire's codes (the compiler checks this assignment).
  const code: ErrorCode = error.code;
  return { error: error.message, code };
}

function refused(error: VoiceInputError): { ok: false; error: string; code: ErrorCode } {
  return { ok: false, ...voiceFailure(error) };
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Base64 (standard or URL-safe, padded or not) with any whitespace ignored; null when it is not base64.
 * @example decodeBase64("UklG\nRg==\n") // Uint8Array [82, 73, 70, 70, 70]
 */
export function decodeBase64(text: string): Uint8Array | null {
  const clean = text.replace(/\s+/g, "");
  if (!BASE64.test(clean) || clean.length % 4 === 1) return null;
  return Buffer.from(clean, "base64");
}

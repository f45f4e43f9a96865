/**
 * Voice input: what the interact socket needs for `add_audio`, `clear_audio`, `check_turn`, `transcribe` and
 * an `interact` whose text comes from the child's voice.
 *
 * Per socket (see the README's "Voice input" section for the wiring):
 *   const voice = await VoiceBuffer.create(voiceBufferSettings(config));   // on authenticate (or lazily)
 *   const budget = audioBudget(config);                                     // add_audio's own rate budget
 *   add_audio:   await voice.add(base64Decode(msg.audio), msg.config, budget)  -> AddResult (speechStarted for barge-in)
 *   clear_audio: voice.clear()                                              // always succeeds
 *   check_turn:  voice.turn().isUserStillSpeaking
 *   transcribe:  await transcribeBuffer(voice, stt, languageCode)            // does not consume
 *   interact "": await transcribeBuffer(voice, stt, languageCode, { consume: true })
 *   interrupt / close / player deleted: voice.clear() / voice.close()
 * Errors are VoiceInputError with a wire `code`: invalid_audio, audio_buffer_full, rate_limited, no_audio,
 * stt_unavailable, stt_failed.
 */
import { AudioBudget } from "./budget.ts";
import type { VoiceBuffer, VoiceBufferSettings } from "./buffer.ts";
import { NoAudio } from "./errors.ts";
import type { SttProvider } from "./stt.ts";

export { AudioBudget, type BudgetDecision, MIN_COST_SECONDS } from "./budget.ts";
export { type AddResult, type AudioChunkConfig, DEFAULT_PCM_RATE, VoiceBuffer, type VoiceBufferSettings } from "./buffer.ts";
export type { StreamFormat } from "./decoders.ts";
export * from "./errors.ts";
export { encodeWav } from "./pcm.ts";
export { Resampler, TARGET_RATE } from "./resample.ts";
export { isPcmLabel, sniff } from "./sniff.ts";
export {
  createSttProvider,
  NoSttProvider,
  OpenAiTranscriptionProvider,
  PocketsphinxProvider,
  primaryLanguage,
  type SttConfig,
  type SttLogger,
  type SttProvider,
  type TranscriptionRequest,
} from "./stt.ts";
export type { TurnState } from "./turn.ts";
export { loadVad } from "./vad.ts";

/** The buffer settings from the HOOT_* configuration. */
export function voiceBufferSettings(config: {
  audioBufferSeconds: number;
  audioBufferBytes: number;
  vadSilenceMs: number;
  vadMode: number;
}): VoiceBufferSettings {
  return { maxSeconds: config.audioBufferSeconds, maxBytes: config.audioBufferBytes, silenceMs: config.vadSilenceMs, vadMode: config.vadMode };
}

/** A fresh audio budget for one socket. */
export function audioBudget(config: { wsAudioSecondsPerSecond: number; wsAudioBurstSeconds: number }, now = performance.now()): AudioBudget {
  return new AudioBudget(config.wsAudioSecondsPerSecond, config.wsAudioBurstSeconds, now);
}

export interface Transcript {
  text: string;
  /** Audio sent to the recogniser, ms. */
  audioMs: number;
  /** Time the recogniser took, ms. */
  sttMs: number;
  /** Whether the VAD heard any speech in it. */
  heardSpeech: boolean;
}

/**
 * Transcribes the buffered audio: `consume` takes it (the buffer is cleared, as an empty-text interact
 * does), otherwise it stays (`transcribe`). Throws NoAudio on an empty buffer, and the provider's errors.
 * @example const { text } = await transcribeBuffer(voice, stt, "en", { consume: true })
 */
export async function transcribeBuffer(
  voice: VoiceBuffer,
  stt: SttProvider,
  languageCode: string,
  options: { consume?: boolean; signal?: AbortSignal } = {},
): Promise<Transcript> {
  await voice.settled();
  const heardSpeech = voice.turn().heardSpeech;
  const wav = options.consume ? await voice.take() : await voice.wav();
  if (!wav) throw new NoAudio();
  const audioMs = ((wav.length - 44) / 2 / 16000) * 1000;
  const started = performance.now();
  const { text } = await stt.transcribe({ wav, languageCode, signal: options.signal });
  return { text, audioMs, sttMs: performance.now() - started, heardSpeech };
}

/**
 * Speech for the turn engine. `createTtsProvider` builds the provider its options name:
 * - `local` (default): flite in worker threads, offline, voices slt (default), kal16, awb, rms;
 * - `openai`: an OpenAI-compatible /audio/speech endpoint, voices fable (default), nova, alloy, ...
 * Both honour the contract in ./types.ts: one self-contained stream per sentence (MP3: 44.1 kHz MPEG-1, one
 * chunk per sentence; pcm16: 200 ms chunks), work started as soon as `synthesize` is called, a quiet stop on
 * abort, TtsError on failure, and `admit()` to reserve capacity for a turn before it starts.
 */
import { LocalSpeechProvider } from "./local-provider.ts";
import { silentLogger, type TtsLogger } from "./logger.ts";
import { OpenAiSpeechProvider } from "./openai-provider.ts";
import type { TtsObserver, TtsProvider } from "./types.ts";

export { MP3_SAMPLE_RATE, MP3_VBR_QUALITY } from "./audio/mp3-encoder.ts";
export { PCM_CHUNK_MS } from "./audio/pcm-chunks.ts";
export { DEFAULT_FLITE_VOICE, FLITE_VOICES } from "./flite/voices.ts";
export { type LocalSpeechOptions, LocalSpeechProvider, type LocalSpeechStats, usableCores } from "./local-provider.ts";
export type { TtsLogger } from "./logger.ts";
export { OPENAI_VOICES, type OpenAiSpeechOptions, OpenAiSpeechProvider } from "./openai-provider.ts";
export { estimateSeconds } from "./schedule.ts";
export * from "./types.ts";

/** What the engine's owner decides about speech (the app maps its settings onto this; nothing here reads them). */
export interface TtsOptions {
  /** `local` (default) or `openai`. */
  provider?: "local" | "openai";
  /** local: synthesis workers (default: the cores this process may run on). */
  workers?: number;
  /** local: work deadline of one sentence; openai: longest wait for the next bytes (default 15 s). */
  timeoutMs?: number;
  /** Turns that may speak at once; 0 (default) = local: as many as stay real-time, openai: no limit. */
  maxTurns?: number;
  /** local: refuse new turns while the speech queue is this late (default 300 ms). */
  maxLagMs?: number;
  /** openai: the endpoint, key and model. */
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  /** Metrics hooks. */
  observer?: TtsObserver;
}

/**
 * The speech provider `options` ask for. Call `close()` on shutdown to stop its workers.
 * @example const tts = createTtsProvider({ provider: "local", workers: 2 }, logger.child({ module: "tts" }))
 */
export function createTtsProvider(options: TtsOptions = {}, logger: TtsLogger = silentLogger): TtsProvider {
  const { provider, workers, timeoutMs, maxTurns, maxLagMs, observer } = options;
  if (provider === "openai") {
    return new OpenAiSpeechProvider({
      baseUrl: options.baseUrl ?? "https://api.openai.com/v1",
      apiKey: options.apiKey ?? "",
      model: options.model ?? "tts-1",
      timeoutMs,
      maxTurns,
      observer,
      logger,
    });
  }
  return new LocalSpeechProvider({ workers, timeoutMs, maxTurns, maxLagMs, observer, logger });
}

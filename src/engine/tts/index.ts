/**
 * Speech for the turn engine. `createTtsProvider` picks the provider named by HOOT_TTS_PROVIDER:
 * - `local` (default): flite in worker threads, offline, voices slt (default), kal16, awb, rms;
 * - `openai`: an OpenAI-compatible /audio/speech endpoint, voices fable (default), nova, alloy, ...
 * Both honour the contract in ./types.ts: one self-contained stream per sentence, chunks of whole MP3 frames
 * (or 16-bit PCM), work started as soon as `synthesize` is called, a quiet stop on abort, TtsError on failure.
 */
import type { Config } from "../../config.ts";
import { LocalSpeechProvider } from "./local-provider.ts";
import { type TtsLogger, silentLogger } from "./logger.ts";
import { OpenAiSpeechProvider } from "./openai-provider.ts";
import type { TtsProvider } from "./types.ts";

export { LocalSpeechProvider } from "./local-provider.ts";
export { OpenAiSpeechProvider, OPENAI_VOICES } from "./openai-provider.ts";
export { FLITE_VOICES, DEFAULT_FLITE_VOICE } from "./flite/voices.ts";
export { MP3_SAMPLE_RATE, MP3_BITRATE_KBPS } from "./audio/mp3-encoder.ts";
export { MP3_CHUNK_MS } from "./audio/mp3-chunker.ts";
export { PCM_CHUNK_MS } from "./audio/pcm-chunks.ts";
export type { TtsLogger } from "./logger.ts";
export * from "./types.ts";

/**
 * The speech provider `config` asks for. Call `close()` on shutdown to stop its workers.
 * @example const tts = createTtsProvider(config, logger.child({ module: "tts" }))
 */
export function createTtsProvider(config: Config, logger: TtsLogger = silentLogger): TtsProvider {
  if (config.ttsProvider === "openai") return new OpenAiSpeechProvider(config, logger);
  return new LocalSpeechProvider(config, logger);
}

/**
 * The offline speech provider: flite (WebAssembly) in a pool of Bun workers. Audio never leaves the machine
 * and nothing is downloaded: the wasm is embedded in the executable.
 *
 * Formats: `mp3` is MPEG-1 Layer III, mono, 32 kHz, 48 kbps CBR, one stream per sentence, chunks of 6 whole
 * frames (216 ms), mime type `audio/mpeg`. `pcm16` is little-endian signed 16-bit mono at 16 kHz (flite's own
 * rate), chunks of 200 ms (6,400 bytes), mime type `audio/pcm`.
 */
import type { Config } from "../../config.ts";
import { ChunkQueue } from "./chunk-queue.ts";
import { FlitePool } from "./flite/pool.ts";
import { normalizeForFlite, isSpeakable } from "./flite/normalize-text.ts";
import { FLITE_VOICES, findFliteVoice } from "./flite/voices.ts";
import { loadFliteModule } from "./flite/wasm.ts";
import { fliteWorkerPath } from "./flite/worker-url.ts";
import type { TtsLogger } from "./logger.ts";
import { type AudioChunk, type SpeechRequest, TtsError, type TtsProvider } from "./types.ts";

/** How long a cancelled job's worker may take to notice before it is replaced. */
const CANCEL_GRACE_MS = 250;

export class LocalSpeechProvider implements TtsProvider {
  readonly name = "local";
  private readonly pool: FlitePool | null;
  private readonly unavailable: TtsError | null = null;

  constructor(config: Pick<Config, "ttsWorkers" | "ttsTimeoutMs">, logger: TtsLogger) {
    const workerPath = fliteWorkerPath();
    if (!workerPath) {
      // Reported on every request rather than thrown here, so the server still starts and says what is wrong.
      this.unavailable = new TtsError("speech worker is missing from this build (add src/engine/tts/flite/worker.ts to the bun build --compile entrypoints)", false);
      logger.error({}, this.unavailable.message);
      this.pool = null;
      return;
    }
    this.pool = new FlitePool(loadFliteModule(), {
      size: config.ttsWorkers,
      workerPath,
      jobTimeoutMs: config.ttsTimeoutMs,
      cancelGraceMs: CANCEL_GRACE_MS,
      logger,
    });
  }

  voices(): string[] {
    return FLITE_VOICES.map((voice) => voice.id);
  }

  /** Resolves when a worker is warm: call at boot so the first child does not wait for compilation. */
  ready(): Promise<void> {
    return this.pool ? this.pool.ready() : Promise.reject(this.unavailable);
  }

  /**
   * Queues the sentence at once (before iteration starts) and streams its audio.
   * @example for await (const chunk of tts.synthesize({ text, voice: {}, format: "mp3", signal })) send(chunk)
   */
  synthesize(request: SpeechRequest): AsyncIterable<AudioChunk> {
    const voice = findFliteVoice(request.voice.voice_id);
    if (!voice) return ended(new TtsError("unknown voice", false));
    if (!this.pool) return ended(this.unavailable ?? new TtsError("speech engine unavailable", false));
    const text = normalizeForFlite(request.text);
    if (!isSpeakable(text)) return ended(null);
    return this.pool.submit({ text, voiceId: voice.id, profile: request.voice, format: request.format, due: request.due }, request.signal);
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

/** A stream that ends at once, with `error` or empty. */
function ended(error: TtsError | null): AsyncIterable<AudioChunk> {
  const queue = new ChunkQueue<AudioChunk>();
  if (error) queue.fail(error);
  else queue.end();
  return queue;
}

/**
 * Speech from an OpenAI-compatible `POST {base}/audio/speech` endpoint, streamed.
 *
 * The service is always asked for `response_format: "pcm"` (24 kHz s16le), whatever the client wants, because
 * its own MP3 is not what hoot promises (OpenAI's is 24 kHz MPEG-2, which the Unity SDK cannot play):
 * - `mp3`: the samples are encoded here with the same LAME encoder as the local engine, as they arrive, into one
 *   44.1 kHz MPEG-1 stream per sentence, delivered as one chunk when the sentence is complete;
 * - `pcm16`: the samples are re-cut into 200 ms chunks at 24 kHz.
 * Rules: every failure (refused connection, HTTP error, timeout, a body that stalls) becomes a TtsError and
 * the request is aborted, so a caller never waits longer than `timeoutMs` for the next bytes.
 */
import { Channel } from "../pipeline/channel.ts";
import { MP3_SAMPLE_RATE, Mp3Encoder } from "./audio/mp3-encoder.ts";
import { PCM_CHUNK_MS, PcmRechunker } from "./audio/pcm-chunks.ts";
import { silentLogger, type TtsLogger } from "./logger.ts";
import { chunkMarks } from "./marks/chunk-marks.ts";
import { estimatedMarks } from "./marks/estimate.ts";
import { EstimatedPcmMarks } from "./marks/estimated-pcm.ts";
import { Loudness } from "./marks/loudness.ts";
import { StallGuard } from "./stall-guard.ts";
import { type AudioChunk, type SpeechRequest, type SpeechTicket, TtsError, type TtsObserver, type TtsProvider } from "./types.ts";

/** The voices of OpenAI's speech models. The default, "fable", is a warm storyteller's voice. */
export const OPENAI_VOICES = ["fable", "nova", "alloy", "ash", "ballad", "coral", "echo", "onyx", "sage", "shimmer", "verse", "marin", "cedar"];
/** OpenAI's `pcm` format: 24 kHz, 16-bit, mono, little-endian. */
const OPENAI_PCM_RATE = 24000;
/** Encoders kept for reuse between sentences (one is needed per sentence being encoded at the same time). */
const IDLE_ENCODERS = 8;

export interface OpenAiSpeechOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Longest wait for the service's next bytes (default 15 s). */
  timeoutMs?: number;
  /** Turns that may speak at once; 0 (default) = no limit (the service's own limits apply). */
  maxTurns?: number;
  observer?: TtsObserver;
  logger?: TtsLogger;
}

export class OpenAiSpeechProvider implements TtsProvider {
  readonly name = "openai";
  private readonly logger: TtsLogger;
  private readonly idle: Mp3Encoder[] = [];
  private speaking = 0;

  constructor(private readonly options: OpenAiSpeechOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  voices(): string[] {
    return [...OPENAI_VOICES];
  }

  /** A ticket for one more turn, or null once `maxTurns` turns are speaking. */
  admit(): SpeechTicket | null {
    const max = this.options.maxTurns ?? 0;
    const admitted = max <= 0 || this.speaking < max;
    this.options.observer?.admission?.(admitted);
    if (!admitted) return null;
    this.speaking++;
    let released = false;
    return {
      release: () => {
        if (!released) this.speaking--;
        released = true;
      },
    };
  }

  /**
   * Sends the request at once (before iteration starts) and streams the sentence's audio.
   * @example for await (const chunk of tts.synthesize({ text, voice: { voice_id: "nova" }, format: "mp3", signal })) send(chunk)
   */
  synthesize(request: SpeechRequest): AsyncIterable<AudioChunk> {
    return startEagerly(request.signal, (signal) => this.stream({ ...request, signal }));
  }

  async close(): Promise<void> {
    this.idle.length = 0;
  }

  private async *stream(request: SpeechRequest): AsyncIterable<AudioChunk> {
    const voice = request.voice.voice_id ?? OPENAI_VOICES[0];
    if (!OPENAI_VOICES.includes(voice)) throw new TtsError("unknown voice", false);
    if (request.signal.aborted || request.text.trim() === "") return;
    const started = performance.now();
    const body = await this.open(request, voice);
    if (!body) return;
    if (request.format === "pcm16") {
      const chunker = new PcmRechunker(((OPENAI_PCM_RATE * PCM_CHUNK_MS) / 1000) * 2);
      const marks = request.marks ? new EstimatedPcmMarks(request.written ?? request.text, request.voice.speed ?? 1) : null;
      let bytes = 0;
      const wrap = (data: Uint8Array): AudioChunk => ({ data, mimeType: "audio/pcm", sampleRate: OPENAI_PCM_RATE });
      for await (const part of body) {
        bytes += part.length;
        for (const data of chunker.push(part)) {
          if (!marks) yield wrap(data);
          else for (const chunk of marks.push(wrap(data))) yield chunk;
        }
      }
      for (const data of chunker.end()) {
        if (!marks) yield wrap(data);
        else for (const chunk of marks.push(wrap(data))) yield chunk;
      }
      if (marks) for (const chunk of marks.end()) yield chunk;
      this.options.observer?.synthesized?.(performance.now() - started, bytes / 2 / OPENAI_PCM_RATE);
      return;
    }
    const encoder = this.idle.pop() ?? (await Mp3Encoder.create());
    try {
      const stream = encoder.start(OPENAI_PCM_RATE);
      const samples = new SampleReader();
      const loudness = request.marks ? new Loudness(OPENAI_PCM_RATE) : null;
      for await (const part of body) {
        const read = samples.push(part);
        stream.write(read);
        loudness?.push(read);
      }
      if (request.signal.aborted) return;
      const data = stream.end();
      const seconds = samples.count / OPENAI_PCM_RATE;
      this.options.observer?.synthesized?.(performance.now() - started, seconds);
      const chunk: AudioChunk = { data, mimeType: "audio/mpeg", sampleRate: MP3_SAMPLE_RATE };
      if (loudness) chunk.marks = chunkMarks(estimatedMarks(request.written ?? request.text, seconds, loudness.speech() ?? undefined), chunk, 0, true);
      if (data.length > 0) yield chunk;
    } finally {
      // An encoder left mid-stream is reset by its next start(), so it can always be reused.
      if (this.idle.length < IDLE_ENCODERS) this.idle.push(encoder);
    }
  }

  /** Sends the request; returns the body as a guarded byte stream, or null once the caller aborted. */
  private async open(request: SpeechRequest, voice: string): Promise<AsyncIterable<Uint8Array> | null> {
    const guard = new StallGuard(request.signal, this.options.timeoutMs ?? 15_000);
    const url = `${this.options.baseUrl.replace(/\/+$/, "")}/audio/speech`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${this.options.apiKey}` },
        body: JSON.stringify({ model: this.options.model, input: request.text, voice, response_format: "pcm", speed: request.voice.speed ?? 1 }),
        signal: guard.signal,
      });
    } catch (error) {
      guard.stop();
      if (request.signal.aborted) return null;
      if (guard.timedOut) throw new TtsError("speech service timed out", true);
      this.logger.warn({ reason: error instanceof Error ? error.name : "unknown", chars: request.text.length }, "speech service unreachable");
      throw new TtsError("speech service unreachable", true);
    }
    if (!response.ok || !response.body) {
      guard.stop();
      await response.body?.cancel().catch(() => {});
      this.logger.warn({ status: response.status, chars: request.text.length }, "speech service refused the request");
      // 408, 429 and 5xx are worth a retry; other 4xx mean the request itself is wrong.
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      throw new TtsError(`speech service answered ${response.status}`, retryable);
    }
    return guard.read(response.body);
  }
}

/** Turns a byte stream of little-endian 16-bit samples into samples, carrying an odd byte to the next part. */
class SampleReader {
  private carry: number | null = null;
  count = 0;

  push(part: Uint8Array): Int16Array {
    const total = part.length + (this.carry === null ? 0 : 1);
    const samples = new Int16Array(total >> 1);
    let i = 0;
    let n = 0;
    if (this.carry !== null && part.length > 0) {
      samples[n++] = ((this.carry | (part[0] << 8)) << 16) >> 16;
      i = 1;
      this.carry = null;
    }
    for (; i + 1 < part.length; i += 2) samples[n++] = ((part[i] | (part[i + 1] << 8)) << 16) >> 16;
    if (i < part.length) this.carry = part[i];
    this.count += n;
    return samples.subarray(0, n);
  }
}

/**
 * Runs `source` now, buffering what it yields, so work starts before anyone iterates. `source` gets a signal
 * that aborts when `signal` does or when the consumer stops reading; its errors reach the consumer, except
 * after an abort (a stopped stream ends quietly).
 */
function startEagerly<T>(signal: AbortSignal, source: (signal: AbortSignal) => AsyncIterable<T>): AsyncIterable<T> {
  const controller = new AbortController();
  const out = new Channel<T>(signal);
  const onAbort = () => controller.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  void (async () => {
    try {
      for await (const item of source(controller.signal)) {
        if (!out.push(item)) {
          controller.abort();
          break;
        }
      }
      out.close();
    } catch (error) {
      if (controller.signal.aborted) out.close();
      else out.fail(error);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  })();
  return out;
}

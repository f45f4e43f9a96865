/**
 * Speech from an OpenAI-compatible `POST {base}/audio/speech` endpoint, streamed.
 *
 * `mp3` bodies are re-cut on frame boundaries (ID3 tags dropped) so every chunk holds whole frames; `pcm16`
 * asks for `response_format: "pcm"` (24 kHz s16le) and is re-cut into 200 ms chunks. The frames are passed
 * through as the server made them: this provider does not re-encode.
 * Rules: every failure (refused connection, HTTP error, timeout, a body that stalls) becomes a TtsError and
 * the request is aborted, so a caller never waits longer than `ttsTimeoutMs` for the next bytes.
 */
import type { Config } from "../../config.ts";
import { Mp3Chunker } from "./audio/mp3-chunker.ts";
import { PCM_CHUNK_MS, PcmRechunker } from "./audio/pcm-chunks.ts";
import { startEagerly } from "./chunk-queue.ts";
import type { TtsLogger } from "./logger.ts";
import { StallGuard } from "./stall-guard.ts";
import { type AudioChunk, type SpeechRequest, TtsError, type TtsProvider } from "./types.ts";

/** The voices of OpenAI's speech models. The default, "fable", is a warm storyteller's voice. */
export const OPENAI_VOICES = ["fable", "nova", "alloy", "ash", "ballad", "coral", "echo", "onyx", "sage", "shimmer", "verse", "marin", "cedar"];
/** OpenAI's `pcm` format: 24 kHz, 16-bit, mono, little-endian. */
const OPENAI_PCM_RATE = 24000;

export type OpenAiSpeechConfig = Pick<Config, "ttsBaseUrl" | "ttsApiKey" | "ttsModel" | "ttsTimeoutMs">;

export class OpenAiSpeechProvider implements TtsProvider {
  readonly name = "openai";

  constructor(
    private readonly config: OpenAiSpeechConfig,
    private readonly logger: TtsLogger,
  ) {}

  voices(): string[] {
    return [...OPENAI_VOICES];
  }

  /**
   * Sends the request at once (before iteration starts) and streams the sentence's audio.
   * @example for await (const chunk of tts.synthesize({ text, voice: { voice_id: "nova" }, format: "mp3", signal })) send(chunk)
   */
  synthesize(request: SpeechRequest): AsyncIterable<AudioChunk> {
    return startEagerly(request.signal, (signal) => this.stream({ ...request, signal }));
  }

  private async *stream(request: SpeechRequest): AsyncIterable<AudioChunk> {
    const voice = request.voice.voice_id ?? OPENAI_VOICES[0];
    if (!OPENAI_VOICES.includes(voice)) throw new TtsError("unknown voice", false);
    if (request.signal.aborted || request.text.trim() === "") return;
    const body = await this.open(request, voice);
    if (!body) return;
    const mp3 = request.format === "mp3";
    const mp3Chunker = new Mp3Chunker();
    const pcmChunker = new PcmRechunker(((OPENAI_PCM_RATE * PCM_CHUNK_MS) / 1000) * 2);
    const toChunks = (bytes: Uint8Array) => (mp3 ? mp3Chunker.push(bytes) : pcmChunker.push(bytes));
    const wrap = (data: Uint8Array): AudioChunk =>
      mp3 ? { data, mimeType: "audio/mpeg", sampleRate: mp3Chunker.first?.sampleRate ?? 0 } : { data, mimeType: "audio/pcm", sampleRate: OPENAI_PCM_RATE };
    for await (const bytes of body) {
      for (const data of toChunks(bytes)) yield wrap(data);
    }
    for (const data of mp3 ? mp3Chunker.end() : pcmChunker.end()) yield wrap(data);
  }

  async close(): Promise<void> {}

  /** Sends the request; returns the body as a guarded byte stream, or null once the caller aborted. */
  private async open(request: SpeechRequest, voice: string): Promise<AsyncIterable<Uint8Array> | null> {
    const guard = new StallGuard(request.signal, this.config.ttsTimeoutMs);
    const url = `${this.config.ttsBaseUrl.replace(/\/+$/, "")}/audio/speech`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${this.config.ttsApiKey}` },
        body: JSON.stringify({
          model: this.config.ttsModel,
          input: request.text,
          voice,
          response_format: request.format === "mp3" ? "mp3" : "pcm",
          speed: request.voice.speed ?? 1,
        }),
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

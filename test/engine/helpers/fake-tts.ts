/**
 * A TtsProvider fake that implements the real interface: settable delay per chunk, chunks per sentence,
 * failure, and a record of every request (start and end times, aborts, how many ran at once).
 */
import { sleep } from "../../../src/engine/pipeline/abort.ts";
import { TtsError, type AudioChunk, type SpeechRequest, type TtsProvider } from "../../../src/engine/tts/types.ts";

export interface FakeTtsOptions {
  delayMs?: number;
  chunksPerSentence?: number;
  /** Throw a TtsError when synthesizing a sentence for which this returns true. */
  failOn?: (text: string) => boolean;
  mimeType?: string;
  sampleRate?: number;
}

export interface SynthesisRecord {
  text: string;
  startedAt: number;
  endedAt: number | null;
  aborted: boolean;
}

export class FakeTts implements TtsProvider {
  readonly name = "fake";
  readonly records: SynthesisRecord[] = [];
  active = 0;
  maxActive = 0;
  closed = 0;

  constructor(public options: FakeTtsOptions = {}) {}

  voices(): string[] {
    return ["fake-kid", "fake-owl"];
  }

  async *synthesize(request: SpeechRequest): AsyncIterable<AudioChunk> {
    const record: SynthesisRecord = { text: request.text, startedAt: performance.now(), endedAt: null, aborted: false };
    this.records.push(record);
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      const count = this.options.chunksPerSentence ?? 2;
      for (let i = 0; i < count; i++) {
        await sleep(this.options.delayMs ?? 0, request.signal);
        if (request.signal.aborted) {
          record.aborted = true;
          return;
        }
        if (this.options.failOn?.(request.text)) throw new TtsError("fake synthesis failed", false);
        yield { data: new TextEncoder().encode(`${request.text}#${i}`), mimeType: this.options.mimeType ?? "audio/mpeg", sampleRate: this.options.sampleRate ?? 22050 };
      }
    } finally {
      record.endedAt = performance.now();
      this.active--;
    }
  }

  async close(): Promise<void> {
    this.closed++;
  }
}

/** Decodes an audio event's payload back to the fake's "<sentence>#<chunk>" text. */
export function decodeFakeAudio(base64: string): string {
  return Buffer.from(base64, "base64").toString("utf8");
}

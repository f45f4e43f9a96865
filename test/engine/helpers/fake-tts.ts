/**
 * A TtsProvider fake that implements the real interface, including its contract that work starts when
 * `synthesize` is called (not when someone iterates): settable delay per chunk, chunks per sentence,
 * failure, an option to ignore the abort signal (a provider that is stuck), and a record of every request
 * (start and end times, aborts, how many ran at once).
 */
import { sleep } from "../../../src/engine/pipeline/abort.ts";
import { Channel } from "../../../src/engine/pipeline/channel.ts";
import { type AudioChunk, type SpeechRequest, type SpeechTicket, TtsError, type TtsProvider } from "../../../src/engine/tts/types.ts";

export interface FakeTtsOptions {
  delayMs?: number;
  chunksPerSentence?: number;
  /** Throw a TtsError when synthesizing a sentence for which this returns true. */
  failOn?: (text: string) => boolean;
  mimeType?: string;
  sampleRate?: number;
  /** Keep working (and keep the stream open) even when the signal aborts. */
  ignoreAbort?: boolean;
  /** Give the provider admission control: how many turns may hold a ticket at once. */
  admitTurns?: number;
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
  /** Tickets out now, and every ticket seen in a request. */
  ticketsOut = 0;
  readonly ticketsSeen = new Set<SpeechTicket>();
  readonly admit?: () => SpeechTicket | null;

  constructor(public options: FakeTtsOptions = {}) {
    const limit = options.admitTurns;
    if (limit !== undefined) {
      this.admit = () => {
        if (this.ticketsOut >= limit) return null;
        this.ticketsOut++;
        let released = false;
        return {
          release: () => {
            if (!released) this.ticketsOut--;
            released = true;
          },
        };
      };
    }
  }

  voices(): string[] {
    return ["fake-kid", "fake-owl"];
  }

  synthesize(request: SpeechRequest): AsyncIterable<AudioChunk> {
    const o = this.options;
    const record: SynthesisRecord = { text: request.text, startedAt: performance.now(), endedAt: null, aborted: false };
    if (request.ticket) this.ticketsSeen.add(request.ticket);
    this.records.push(record);
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    const out = new Channel<AudioChunk>(o.ignoreAbort ? undefined : request.signal);
    void (async () => {
      try {
        for (let i = 0; i < (o.chunksPerSentence ?? 2); i++) {
          if (o.ignoreAbort) await Bun.sleep(o.delayMs ?? 0);
          else await sleep(o.delayMs ?? 0, request.signal);
          if (request.signal.aborted && !o.ignoreAbort) {
            record.aborted = true;
            return;
          }
          if (o.failOn?.(request.text)) {
            out.fail(new TtsError("fake synthesis failed", false));
            return;
          }
          const chunk = { data: new TextEncoder().encode(`${request.text}#${i}`), mimeType: o.mimeType ?? "audio/mpeg", sampleRate: o.sampleRate ?? 22050 };
          // false once the reader left: stop the work like a real provider.
          if (!out.push(chunk)) {
            record.aborted = true;
            return;
          }
        }
        out.close();
      } finally {
        record.endedAt = performance.now();
        this.active--;
      }
    })();
    return out;
  }

  async close(): Promise<void> {
    this.closed++;
  }
}

/** Decodes an audio payload (base64) back to the fake's "<sentence>#<chunk>" text. */
export function decodeFakeAudio(base64: string): string {
  return Buffer.from(base64, "base64").toString("utf8");
}

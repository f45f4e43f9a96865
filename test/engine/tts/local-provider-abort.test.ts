/**
 * Aborts and deadlines on a one-worker provider, where a worker that is not freed would block the next request.
 */
import { afterEach, describe, expect, it } from "bun:test";
import { LocalSpeechProvider, type SpeechRequest, TtsError } from "../../../src/engine/tts/index.ts";
import { caught, collect, decodeMp3, join, recordingLogger } from "./helpers.ts";

const LONG = "The little owl flew over the quiet forest, past the river and the hills, looking for her friends. ".repeat(8);
const VERY_LONG = LONG.repeat(8);

let tts: LocalSpeechProvider | null = null;
let log = recordingLogger();

async function provider(options: { timeoutMs?: number } = {}): Promise<LocalSpeechProvider> {
  log = recordingLogger();
  tts = new LocalSpeechProvider({ workers: 1, logger: log, ...options });
  await tts.ready();
  return tts;
}

function request(text: string, signal: AbortSignal, format: SpeechRequest["format"] = "mp3"): SpeechRequest {
  return { text, voice: {}, format, signal };
}

afterEach(async () => {
  await tts?.close();
  tts = null;
});

describe("local speech provider: abort and deadlines", () => {
  it("stops at once when aborted mid-sentence and frees the worker for the next request", async () => {
    const speech = await provider();
    const controller = new AbortController();
    const chunks: Uint8Array[] = [];
    let abortedAt = 0;
    // pcm16 comes in many chunks, so the abort lands between two of them.
    for await (const chunk of speech.synthesize(request(LONG, controller.signal, "pcm16"))) {
      chunks.push(chunk.data);
      if (chunks.length === 2) {
        abortedAt = performance.now();
        controller.abort();
      }
    }
    // Promptly (generous bound for a busy CI machine): the loop ends without waiting for the rest of LONG.
    expect(performance.now() - abortedAt).toBeLessThan(500);
    // Nothing arrives after the abort, not even chunks that were already produced.
    expect(chunks.length).toBe(2);
    // The worker stops between chunks; the next sentence must not wait for the rest of LONG.
    const next = await collect(speech.synthesize(request("Are you still there?", new AbortController().signal)));
    expect(next.firstMs).toBeLessThan(3000);
    expect((await decodeMp3(join(next.chunks))).errors).toBe(0);
  });

  it("drops an aborted request from the queue without touching the running one", async () => {
    const speech = await provider();
    const running = collect(speech.synthesize(request("First, a sentence that is running.", new AbortController().signal)));
    const controller = new AbortController();
    const queued = collect(speech.synthesize(request("Second, a sentence that waits.", controller.signal)));
    controller.abort();
    const dropped = await queued;
    expect(dropped.chunks).toEqual([]);
    // It ends without waiting for the running sentence (generous bound for a busy CI machine).
    expect(dropped.totalMs).toBeLessThan(500);
    expect((await running).chunks.length).toBeGreaterThan(0);
  });

  it("stops when the consumer stops iterating early", async () => {
    const speech = await provider();
    for await (const _ of speech.synthesize(request(LONG, new AbortController().signal, "pcm16"))) break;
    const next = await collect(speech.synthesize(request("Hello again.", new AbortController().signal)));
    expect(next.firstMs).toBeLessThan(3000);
  });

  it("replaces a worker busy with a very long cancelled flite run, so the next request is not held up", async () => {
    const speech = await provider();
    const controller = new AbortController();
    const stuck = collect(speech.synthesize(request(VERY_LONG, controller.signal)));
    await Bun.sleep(100);
    controller.abort();
    expect((await stuck).chunks).toEqual([]);
    const next = await collect(speech.synthesize(request("Hello again.", new AbortController().signal)));
    expect(next.chunks.length).toBeGreaterThan(0);
    // The busy worker was replaced rather than waited for (flite alone needs many seconds for VERY_LONG).
    expect(log.lines.map((line) => line.message)).toContain("tts worker busy with a long cancelled sentence; replacing it");
  }, 20_000);

  it("fails a sentence whose work runs past the timeout with a retryable TtsError, then keeps working", async () => {
    const speech = await provider({ timeoutMs: 1200 });
    const error = await caught(collect(speech.synthesize(request(VERY_LONG, new AbortController().signal))));
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(true);
    // VERY_LONG needs many seconds of flite work: the deadline (1.2 s) ended it, and its worker was replaced.
    expect((error as TtsError).message).toBe("speech synthesis timed out");
    expect(log.lines.find((line) => line.message === "tts worker stuck on one sentence; replacing it")?.fields).toMatchObject({ timeoutMs: 1200 });
    const next = await collect(speech.synthesize(request("Still here.", new AbortController().signal)));
    expect(next.chunks.length).toBeGreaterThan(0);
  }, 20_000);

  it("fails requests made after close with a TtsError", async () => {
    const speech = await provider();
    await speech.close();
    expect(await caught(collect(speech.synthesize(request("Hello.", new AbortController().signal))))).toBeInstanceOf(TtsError);
  });
});

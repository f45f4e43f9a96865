import { describe, expect, it } from "bun:test";
import type { AudioFrame } from "../../src/engine/frames.ts";
import { speakableText, speechStage } from "../../src/engine/speech/index.ts";
import { TtsError } from "../../src/engine/tts/types.ts";
import { FakeTts } from "./helpers/fake-tts.ts";

async function* list(items: string[], gapMs = 0): AsyncGenerator<string> {
  for (const item of items) {
    if (gapMs) await Bun.sleep(gapMs);
    yield item;
  }
}

async function run(sentences: AsyncIterable<string>, tts: FakeTts, signal = new AbortController().signal): Promise<{ frames: AudioFrame[]; error: unknown }> {
  const frames: AudioFrame[] = [];
  try {
    for await (const frame of speechStage(sentences, { tts, voice: {}, format: "mp3", signal })) frames.push(frame);
    return { frames, error: null };
  } catch (error) {
    return { frames, error };
  }
}

describe("speechStage", () => {
  it("yields each sentence's chunks in sentence order", async () => {
    const tts = new FakeTts({ chunksPerSentence: 2, delayMs: 5 });
    const { frames } = await run(list(["One.", "Two.", "Three."]), tts);
    expect(frames.map((f) => `${f.text}:${new TextDecoder().decode(f.chunk.data)}`)).toEqual([
      "One.:One.#0",
      "One.:One.#1",
      "Two.:Two.#0",
      "Two.:Two.#1",
      "Three.:Three.#0",
      "Three.:Three.#1",
    ]);
  });

  it("keeps sentence order even when a later sentence is quicker to synthesize", async () => {
    const tts = new FakeTts({ chunksPerSentence: 1 });
    const slowFirst = tts.synthesize.bind(tts);
    tts.synthesize = async function* (request) {
      if (request.text === "Slow one.") await Bun.sleep(60);
      yield* slowFirst(request);
    };
    const { frames } = await run(list(["Slow one.", "Quick."]), tts);
    expect(frames.map((f) => f.text)).toEqual(["Slow one.", "Quick."]);
  });

  it("skips units with nothing to say and strips markup before synthesis", async () => {
    const tts = new FakeTts({ chunksPerSentence: 1 });
    const { frames } = await run(list(["🎉🎉", "**Bold** words!"]), tts);
    expect(tts.records.map((r) => r.text)).toEqual(["Bold words!"]);
    expect(frames.map((f) => f.text)).toEqual(["**Bold** words!"]);
    expect(speakableText("--- ***")).toBeNull();
  });

  it("rethrows the provider's error after the chunks it produced", async () => {
    const tts = new FakeTts({ chunksPerSentence: 1, failOn: (t) => t === "Bad." });
    const result = await run(list(["Good.", "Bad.", "Never."]), tts);
    expect(result.frames.map((f) => f.text)).toEqual(["Good."]);
    expect(result.error).toBeInstanceOf(TtsError);
  });

  it("stops synthesis at once on abort", async () => {
    const tts = new FakeTts({ chunksPerSentence: 5, delayMs: 30 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 45);
    const start = performance.now();
    const result = await run(list(["One.", "Two."]), tts, controller.signal);
    expect(performance.now() - start).toBeLessThan(100);
    expect(result.error).toBeNull();
    expect(result.frames.length).toBe(1);
    await Bun.sleep(10);
    expect(tts.active).toBe(0);
  });

  it("waits for sentences that arrive slowly", async () => {
    const tts = new FakeTts({ chunksPerSentence: 1 });
    const { frames } = await run(list(["A.", "B."], 20), tts);
    expect(frames.map((f) => f.text)).toEqual(["A.", "B."]);
  });
});

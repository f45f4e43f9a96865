/**
 * Speech marks from the offline voice, every voice and speed: real flite in a real worker, the MP3 decoded by
 * mpg123. The loud part of the sound falls inside mouth shapes, every word holds voiced sound, and a request
 * without marks gets none.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { type AudioChunk, LocalSpeechProvider, type SpeechRequest } from "../../../src/engine/tts/index.ts";
import { collect, decodeMp3, expectMarksMatchSound, expectWellFormed } from "./helpers.ts";

const TEXT = "Once upon a time, a little owl named Hoot lived in a tall oak tree. Every night she counted 25 stars!";
let tts: LocalSpeechProvider;

beforeAll(async () => {
  tts = new LocalSpeechProvider({ workers: 1 });
  await tts.ready();
});
afterAll(() => tts.close());

function request(extra: Partial<SpeechRequest>): SpeechRequest {
  return { text: TEXT, voice: {}, format: "mp3", signal: new AbortController().signal, marks: true, ...extra };
}

describe("marks of the offline voice", () => {
  it.each(["slt", "kal16", "awb", "rms"].flatMap((voice) => [0.6, 1, 1.6].map((speed) => [voice, speed] as const)))(
    "agree with the decoded sound for voice %s at speed %d",
    async (voice_id, speed) => {
      const { chunks } = await collect(tts.synthesize(request({ voice: { voice_id, speed } })));
      expect(chunks).toHaveLength(1);
      const marks = chunks[0].marks!;
      const decoded = await decodeMp3(chunks[0].data);
      const seconds = decoded.samples.length / decoded.sampleRate;
      expectWellFormed(marks, seconds);
      expect(marks.marks).toBe("engine");
      expect(marks.subtitles.map((w) => w.text)).toEqual(TEXT.split(" "));
      expectMarksMatchSound(decoded.samples, decoded.sampleRate, marks);
    },
    30_000,
  );

  it("tiles every pcm16 chunk and puts each word in the chunk where it starts", async () => {
    const { chunks } = await collect(tts.synthesize(request({ format: "pcm16" })));
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expectWellFormed(chunk.marks!, chunk.data.length / 2 / chunk.sampleRate);
    expect(chunks.flatMap((chunk: AudioChunk) => chunk.marks!.subtitles.map((w) => w.text))).toEqual(TEXT.split(" "));
  });

  it("times nothing when the request does not ask", async () => {
    const { chunks } = await collect(tts.synthesize(request({ marks: false })));
    expect(chunks.map((chunk) => "marks" in chunk)).toEqual([false]);
  });
});

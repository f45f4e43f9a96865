/**
 * Hostile audio: random bytes, and real streams with bytes flipped, cut anywhere and labelled anything.
 * Every chunk must either be accepted or refused with a VoiceInputError; nothing else may escape, and the
 * buffer must stay usable (a clear and a good chunk afterwards work).
 */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { VoiceBuffer, VoiceInputError } from "../../../src/engine/voice-in/index.ts";
import { fixture, pcm16Bytes } from "./helpers/speech.ts";

const FIXTURES = ["puppy.unity.ogg", "puppy.opus.ogg", "puppy.webm", "puppy.mp3"].map(fixture);
const LABELS = [
  undefined,
  { mime_type: "audio/pcm" },
  { mime_type: "audio/ogg" },
  { mime_type: "audio/mpeg", sampling_rate: 48000 },
  { mime_type: "audio/wav", sampling_rate: 0 },
];

async function feed(voice: VoiceBuffer, pieces: Uint8Array[], label: (typeof LABELS)[number]): Promise<void> {
  for (const piece of pieces) {
    try {
      await voice.add(piece, label);
    } catch (error) {
      if (!(error instanceof VoiceInputError)) throw error;
    }
  }
  voice.clear();
  await voice.add(pcm16Bytes(new Int16Array(1600)), { mime_type: "audio/pcm" });
  expect(voice.durationMs).toBe(100);
}

describe("hostile audio", () => {
  it("refuses or accepts random bytes, never throws anything else", async () => {
    const voice = await VoiceBuffer.create({ maxSeconds: 60, maxBytes: 8 << 20, silenceMs: 700, vadMode: 3 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 0, maxLength: 3000 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...LABELS),
        async (pieces, label) => {
          await feed(voice, pieces, label);
        },
      ),
      { numRuns: 150 },
    );
    voice.close();
  });

  it("survives real streams with flipped bytes, cut at random places", async () => {
    const voice = await VoiceBuffer.create({ maxSeconds: 60, maxBytes: 8 << 20, silenceMs: 700, vadMode: 3 });
    await fc.assert(
      fc.asyncProperty(
        fc.nat(FIXTURES.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 50, max: 4000 }),
        fc.constantFrom(...LABELS),
        async (which, flips, size, label) => {
          const bytes = FIXTURES[which].slice();
          for (const [at, value] of flips) bytes[at % bytes.length] = value;
          const pieces: Uint8Array[] = [];
          for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
          await feed(voice, pieces, label);
        },
      ),
      { numRuns: 120 },
    );
    voice.close();
  }, 60_000);
});

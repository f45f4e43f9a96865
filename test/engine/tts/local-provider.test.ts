/**
 * The offline provider end to end: real flite in real workers, real MP3 decoded by mpg123.
 * One two-worker provider is shared by most tests (warming workers costs about half a second each).
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { loadConfig } from "../../../src/config.ts";
import { type AudioChunk, LocalSpeechProvider, type SpeechRequest, TtsError } from "../../../src/engine/tts/index.ts";
import { caught, collect, decodeMp3, decodePcm16, framesOf, join, mainDataBegins, medianPitch, recordingLogger, rms } from "./helpers.ts";

const SENTENCES = [
  "Hello there, my friend!",
  "Once upon a time, a little owl named Hoot lived in a tall oak tree at the edge of the forest.",
  "Do you know why the moon looks different every night?",
  "It's 3 o'clock, and 2.54 centimetres make one inch.",
];

const logger = recordingLogger();
let tts: LocalSpeechProvider;

function request(text: string, extra: Partial<SpeechRequest> = {}): SpeechRequest {
  return { text, voice: {}, format: "mp3", signal: new AbortController().signal, ...extra };
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

async function mp3Seconds(chunks: AudioChunk[]): Promise<number> {
  const decoded = await decodeMp3(join(chunks));
  return decoded.samples.length / decoded.sampleRate;
}

beforeAll(async () => {
  tts = new LocalSpeechProvider(loadConfig({ HOOT_TTS_WORKERS: "2" }), logger);
  await tts.ready();
});

afterAll(async () => {
  await tts.close();
});

describe("local speech provider: MP3", () => {
  it.each(SENTENCES)("speaks %j as one MPEG-1 Layer III mono 32 kHz stream of whole-frame chunks", async (text) => {
    const { chunks } = await collect(tts.synthesize(request(text)));
    expect(chunks.length).toBeGreaterThan(0);
    const all = join(chunks);
    expect(String.fromCharCode(...all.subarray(0, 3))).not.toBe("ID3");
    for (const chunk of chunks) {
      expect(chunk.mimeType).toBe("audio/mpeg");
      expect(chunk.sampleRate).toBe(32000);
      // framesOf throws unless the chunk starts on a frame sync and ends exactly at a frame end.
      const frames = framesOf(chunk.data);
      for (const frame of frames) expect([frame.version, frame.layer, frame.sampleRate, frame.channels]).toEqual([1, 3, 32000, 1]);
    }
    // Chunks carry 100-300 ms each (the last one may be shorter).
    for (const chunk of chunks.slice(0, -1)) {
      const ms = framesOf(chunk.data).reduce((sum, frame) => sum + (frame.samples * 1000) / frame.sampleRate, 0);
      expect(ms).toBeGreaterThanOrEqual(100);
      expect(ms).toBeLessThanOrEqual(300);
    }
    const decoded = await decodeMp3(all);
    expect(decoded.errors).toBe(0);
    expect(decoded.sampleRate).toBe(32000);
    const seconds = decoded.samples.length / decoded.sampleRate;
    expect(seconds).toBeGreaterThan(0.2 * words(text));
    expect(seconds).toBeLessThan(1.0 * words(text) + 0.5);
    expect(rms(decoded.samples)).toBeGreaterThan(0.02);
  });

  it("encodes without the bit reservoir, so every chunk decodes on its own", async () => {
    const { chunks } = await collect(tts.synthesize(request(SENTENCES[1])));
    expect(new Set(mainDataBegins(join(chunks)))).toEqual(new Set([0]));
    for (const chunk of chunks) {
      const decoded = await decodeMp3(chunk.data);
      expect(decoded.errors).toBe(0);
      expect(decoded.samples.length).toBe(framesOf(chunk.data).length * 1152);
    }
  });

  it("makes speech slower at speed 0.7 than at speed 1.2", async () => {
    const text = "The sleepy owl closed her big round eyes and dreamed of stars.";
    const slow = await mp3Seconds((await collect(tts.synthesize(request(text, { voice: { speed: 0.7 } })))).chunks);
    const fast = await mp3Seconds((await collect(tts.synthesize(request(text, { voice: { speed: 1.2 } })))).chunks);
    // Durations scale by 1.2 / 0.7 = 1.71 (a little less, for the fixed encoder delay).
    expect(slow / fast).toBeGreaterThan(1.45);
  });

  it("raises the voice with pitch", async () => {
    const text = "Hello there, do you want to hear a story about a little owl?";
    const pitchOf = async (pitch: number) => {
      const { chunks } = await collect(tts.synthesize(request(text, { format: "pcm16", voice: { pitch } })));
      return medianPitch(decodePcm16(join(chunks)), 16000);
    };
    const low = await pitchOf(0.8);
    const high = await pitchOf(1.25);
    expect(high / low).toBeGreaterThan(1.3);
  });

  it("speaks in a raised, child-friendly voice by default", async () => {
    const { chunks } = await collect(tts.synthesize(request("Hello there, do you want to hear a story about a little owl?", { format: "pcm16" })));
    // slt speaks at about 165 Hz untouched; the default preset lifts her to about 225 Hz.
    expect(medianPitch(decodePcm16(join(chunks)), 16000)).toBeGreaterThan(195);
  });

  it.each(["slt", "kal16", "awb", "rms"])("speaks with the %s voice", async (voice_id) => {
    const { chunks } = await collect(tts.synthesize(request("Good morning!", { voice: { voice_id } })));
    const decoded = await decodeMp3(join(chunks));
    expect(decoded.errors).toBe(0);
    expect(rms(decoded.samples)).toBeGreaterThan(0.02);
  });
});

describe("local speech provider: PCM", () => {
  it("gives 16 kHz little-endian 16-bit mono in 200 ms chunks whose length matches the MP3", async () => {
    const text = SENTENCES[1];
    const { chunks } = await collect(tts.synthesize(request(text, { format: "pcm16" })));
    for (const chunk of chunks) {
      expect(chunk.mimeType).toBe("audio/pcm");
      expect(chunk.sampleRate).toBe(16000);
      expect(chunk.data.length % 2).toBe(0);
    }
    for (const chunk of chunks.slice(0, -1)) expect(chunk.data.length).toBe(6400);
    const samples = decodePcm16(join(chunks));
    expect(rms(samples)).toBeGreaterThan(0.02);
    const pcmSeconds = samples.length / 16000;
    const mp3 = await mp3Seconds((await collect(tts.synthesize(request(text)))).chunks);
    // The MP3 is longer only by the encoder's delay and padding (under 0.15 s).
    expect(mp3 - pcmSeconds).toBeGreaterThanOrEqual(0);
    expect(mp3 - pcmSeconds).toBeLessThan(0.15);
  });
});

describe("local speech provider: requests", () => {
  it("lists its voices with the default first", () => {
    expect(tts.voices()).toEqual(["slt", "kal16", "awb", "rms"]);
  });

  it("refuses an unknown voice with a non-retryable TtsError", async () => {
    const error = await caught(collect(tts.synthesize(request("Hello!", { voice: { voice_id: "nova" } }))));
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(false);
  });

  it("gives no audio and no error for text with nothing to say", async () => {
    expect((await collect(tts.synthesize(request("... 🦉 !")))).chunks).toEqual([]);
    expect((await collect(tts.synthesize(request("")))).chunks).toEqual([]);
  });

  it.each(["--help", "-voice kal -o /etc/passwd", "speech.wav"])("speaks %j as words, never as a flite option or file name", async (text) => {
    const { chunks } = await collect(tts.synthesize(request(text)));
    const decoded = await decodeMp3(join(chunks));
    expect(decoded.samples.length / decoded.sampleRate).toBeGreaterThan(0.5);
    expect(rms(decoded.samples)).toBeGreaterThan(0.02);
  });

  it("gives no audio for a request aborted before it was made", async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await collect(tts.synthesize(request("Hello!", { signal: controller.signal })))).chunks).toEqual([]);
  });

  it("starts work when synthesize is called, before anyone iterates", async () => {
    const stream = tts.synthesize(request(SENTENCES[2]));
    await Bun.sleep(800);
    const { firstMs, totalMs } = await collect(stream);
    // Everything was ready and waiting: reading it all takes no synthesis time.
    expect(firstMs).toBeLessThan(20);
    expect(totalMs).toBeLessThan(50);
  });

  it("completes 20 concurrent requests", async () => {
    const texts = Array.from({ length: 20 }, (_, i) => `This is sentence number ${i + 1}, spoken for a test.`);
    const results = await Promise.all(texts.map((text, i) => collect(tts.synthesize(request(text, { format: i % 2 ? "pcm16" : "mp3" })))));
    for (const [i, { chunks }] of results.entries()) {
      expect(chunks.length).toBeGreaterThan(0);
      if (i % 2 === 0) expect((await decodeMp3(join(chunks))).errors).toBe(0);
    }
  });

  it("never logs the text it speaks", async () => {
    const secret = "Pumpernickel Wigglesworth lives at seven Maple Lane";
    await collect(tts.synthesize(request(secret)));
    const logged = JSON.stringify(logger.lines);
    expect(logged).not.toContain("Pumpernickel");
    expect(logged).not.toContain("Maple");
    expect(logger.lines.some((line) => line.fields.chars === secret.length)).toBe(true);
  });
});

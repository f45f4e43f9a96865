/**
 * The offline provider end to end: real flite in real workers, real MP3 decoded by mpg123.
 * One two-worker provider is shared by most tests (warming workers costs about half a second each).
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { type AudioChunk, LocalSpeechProvider, type SpeechRequest, TtsError } from "../../../src/engine/tts/index.ts";
import { caught, collect, decodeMp3, decodePcm16, expectUnityFrames, join, mainDataBegins, medianPitch, recordingLogger, rms } from "./helpers.ts";

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
  tts = new LocalSpeechProvider({ workers: 2, logger });
  await tts.ready();
});

afterAll(async () => {
  await tts.close();
});

describe("local speech provider: MP3", () => {
  it.each(SENTENCES)("speaks %j as one 44.1 kHz MPEG-1 Layer III mono stream, in one chunk that decodes on its own", async (text) => {
    const { chunks } = await collect(tts.synthesize(request(text)));
    expect(chunks.length).toBe(1);
    const [chunk] = chunks;
    expect(chunk.mimeType).toBe("audio/mpeg");
    expect(chunk.sampleRate).toBe(44100);
    expect(String.fromCharCode(...chunk.data.subarray(0, 3))).not.toBe("ID3");
    // Whole frames, each starting FF FB (MPEG-1, Layer III, no CRC), 44.1 kHz, mono: what Unity plays.
    const frames = expectUnityFrames(chunk.data);
    // A fresh stream takes nothing from before it, so a client can decode the message alone.
    expect(mainDataBegins(chunk.data)[0]).toBe(0);
    const decoded = await decodeMp3(chunk.data);
    expect(decoded.errors).toBe(0);
    expect(decoded.sampleRate).toBe(44100);
    expect(decoded.samples.length).toBe(frames * 1152);
    const seconds = decoded.samples.length / decoded.sampleRate;
    expect(seconds).toBeGreaterThan(0.2 * words(text));
    expect(seconds).toBeLessThan(1.0 * words(text) + 0.5);
    expect(rms(decoded.samples)).toBeGreaterThan(0.02);
  });

  it("starts every sentence as a new stream, so sentences decode one by one in any order", async () => {
    const streams = await Promise.all(SENTENCES.slice(0, 3).map(async (text) => join((await collect(tts.synthesize(request(text)))).chunks)));
    for (const stream of streams.reverse()) {
      expect(mainDataBegins(stream)[0]).toBe(0);
      expect((await decodeMp3(stream)).errors).toBe(0);
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
    await Bun.sleep(2000);
    const { firstMs, totalMs } = await collect(stream);
    // Everything was ready and waiting: reading it all takes no synthesis time (bounds generous for a busy machine).
    expect(firstMs).toBeLessThan(200);
    expect(totalMs).toBeLessThan(300);
  });

  it("completes three times as many concurrent requests as it has workers, each with its own sentence's audio", async () => {
    // Six sentences on two workers, so four wait in the queue. Synthesis is deterministic: each answer must be, byte
    // for byte, what the same sentence gives alone (none lost, swapped or mixed with another), in either format.
    const texts = Array.from({ length: 6 }, (_, i) => `This is sentence number ${i + 1}.`);
    const format = (i: number) => (i % 2 ? "pcm16" : "mp3") as SpeechRequest["format"];
    const alone: Uint8Array[] = [];
    for (const [i, text] of texts.entries()) alone.push(join((await collect(tts.synthesize(request(text, { format: format(i) })))).chunks));
    const together = await Promise.all(texts.map((text, i) => collect(tts.synthesize(request(text, { format: format(i) })))));
    for (const [i, { chunks }] of together.entries()) {
      expect(alone[i]!.length).toBeGreaterThan(0);
      expect(Buffer.from(join(chunks)).equals(Buffer.from(alone[i]!))).toBe(true);
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

describe("local speech provider: admission", () => {
  it("admits turns up to its limit, refuses the next one up front, and admits again once a turn ends", async () => {
    const decisions: boolean[] = [];
    const small = new LocalSpeechProvider({ workers: 1, maxTurns: 2, observer: { admission: (admitted) => decisions.push(admitted) } });
    try {
      const first = small.admit();
      const second = small.admit();
      expect(first).not.toBeNull();
      expect(second).not.toBeNull();
      expect(small.admit()).toBeNull();
      expect(small.stats()).toMatchObject({ workers: 1, turns: 2, limit: 2 });
      first!.release();
      expect(small.admit()).not.toBeNull();
      expect(decisions).toEqual([true, true, false, true]);
    } finally {
      await small.close();
    }
  });

  it("derives its limit from the workers and the measured speed, and reports what each sentence cost", async () => {
    const work: number[] = [];
    const speedy = new LocalSpeechProvider({ workers: 2, observer: { synthesized: (ms, seconds) => work.push(ms / 1000 / seconds) } });
    try {
      for (const text of SENTENCES) await collect(speedy.synthesize(request(text)));
      const { limit, rtf } = speedy.stats();
      expect(work.length).toBe(SENTENCES.length);
      expect(rtf).toBeGreaterThan(0);
      expect(limit).toBe(Math.floor((2 * 0.8) / rtf));
    } finally {
      await speedy.close();
    }
  }, 30_000);

  it("speaks a ticketed turn's sentences in order, each as its own stream", async () => {
    const one = new LocalSpeechProvider({ workers: 1 });
    const ticket = one.admit();
    expect(ticket).not.toBeNull();
    try {
      const streams = SENTENCES.map((text) => collect(one.synthesize(request(text, { ticket: ticket! }))));
      const done: number[] = [];
      await Promise.all(streams.map((stream, i) => stream.then(() => done.push(i))));
      expect(done).toEqual([0, 1, 2, 3]);
      for (const stream of streams) expect((await decodeMp3(join((await stream).chunks))).errors).toBe(0);
    } finally {
      ticket!.release();
      await one.close();
    }
  }, 30_000);
});

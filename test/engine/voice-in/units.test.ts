/** The pure stages alone: container sniffing and 16 kHz resampling. */
import { describe, expect, it } from "bun:test";
import { Resampler, sniff } from "../../../src/engine/voice-in/index.ts";
import { fixture, mp3Bytes, pcm16Bytes, speech, wavBytes } from "./helpers/speech.ts";

describe("sniff", () => {
  it.each([
    ["a WAV", () => wavBytes(new Float32Array(100), 16000, 1, "int16"), { container: "wav", startsStream: true }],
    ["WebM (EBML)", () => fixture("puppy.webm"), { container: "webm", startsStream: true }],
    ["the first Ogg page", () => fixture("puppy.unity.ogg"), { container: "ogg", startsStream: true }],
    ["a later Ogg page", () => fixture("puppy.unity.ogg").subarray(58), { container: "ogg", startsStream: false }],
    ["MP3 with an ID3 tag", () => fixture("puppy.mp3"), { container: "mp3", startsStream: true }],
    ["MP3 frames", () => new Uint8Array(0), { container: "mp3", startsStream: false }],
  ] as const)("recognises %s", async (name, make, expected) => {
    const bytes = name === "MP3 frames" ? await mp3Bytes(await speech()) : make();
    expect(sniff(bytes)).toEqual(expected);
  });

  it.each([
    ["zeros", new Uint8Array(1000)],
    ["text", new TextEncoder().encode("hello, this is not audio at all")],
    ["a PNG", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
    ["a RIFF AVI", new TextEncoder().encode("RIFF\x10\x00\x00\x00AVI ")],
  ])("finds nothing in %s", (_name, bytes) => {
    expect(sniff(bytes)).toBeNull();
  });

  it("does not take labelled PCM that starts like one MP3 frame header for MP3", () => {
    // FF FB 90 64 is a valid MPEG-1 Layer III header; as 16-bit PCM it is two ordinary samples.
    const pcm = new Uint8Array(3200);
    pcm.set([0xff, 0xfb, 0x90, 0x64]);
    expect(sniff(pcm, true)).toBeNull();
    expect(sniff(pcm.subarray(0, 100), false)?.container).toBe("mp3");
  });
});

function tone(freq: number, rate: number, seconds: number): Float32Array {
  return new Float32Array(Math.round(rate * seconds)).map((_, n) => 0.5 * Math.sin((2 * Math.PI * freq * n) / rate));
}

function rms(x: Float32Array): number {
  return Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
}

function zeroCrossingHz(x: Float32Array, rate: number): number {
  let crossings = 0;
  for (let i = 1; i < x.length; i++) if (x[i - 1] < 0 !== x[i] < 0) crossings++;
  return (crossings / 2) * (rate / x.length);
}

describe("Resampler", () => {
  it.each([8000, 22050, 44100, 48000])("keeps a 1 kHz tone at 1 kHz and its level, from %d Hz", (rate) => {
    const r = new Resampler(rate);
    const out = r.push(tone(1000, rate, 1));
    expect(Math.abs(out.length - 16000)).toBeLessThan(40);
    const middle = out.subarray(1000, out.length - 1000);
    expect(zeroCrossingHz(middle, 16000)).toBeCloseTo(1000, -1);
    expect(rms(middle)).toBeCloseTo(0.5 / Math.SQRT2, 2);
  });

  it("keeps speech-band tones and removes what would alias (48 kHz -> 16 kHz)", () => {
    const keep = new Resampler(48000).push(tone(6000, 48000, 1)).subarray(500, 15000);
    const alias = new Resampler(48000).push(tone(12000, 48000, 1)).subarray(500, 15000);
    expect(rms(keep)).toBeGreaterThan(0.3);
    expect(rms(alias)).toBeLessThan(0.5 * 0.01); // more than 40 dB down
  });

  it("gives the same samples whether the input comes whole or in odd chunks", () => {
    const input = tone(440, 44100, 0.5);
    const whole = new Resampler(44100).push(input);
    const r = new Resampler(44100);
    const parts: number[] = [];
    for (let i = 0; i < input.length; i += 333) parts.push(...r.push(input.subarray(i, i + 333)));
    expect(parts.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(Math.abs(parts[i] - whole[i])).toBeLessThan(1e-5);
  });

  it("passes 16 kHz through untouched", async () => {
    const samples = new Float32Array(pcm16Bytes(await speech()).buffer);
    expect(new Resampler(16000).push(samples)).toBe(samples);
  });
});

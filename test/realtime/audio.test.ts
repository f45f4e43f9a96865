/** The Realtime wire's audio formats as plain functions: G.711 both ways, resampling, durations. */
import { describe, expect, it } from "bun:test";
import { decodeInput, durationMs, encodeOutput, g711, pcmBytes, pcmSamples, resample } from "../../src/realtime/audio.ts";

describe("G.711", () => {
  it("matches the ITU tables at their reference points", () => {
    expect([g711.muLaw(0), g711.muLawDecode(0x00), g711.muLawDecode(0x80), g711.muLawDecode(0xff)]).toEqual([0xff, -32124, 32124, 0]);
    expect([g711.aLaw(0), g711.aLawDecode(0xd5), g711.aLawDecode(0x55), g711.aLawDecode(0xaa), g711.aLawDecode(0x2a)]).toEqual([0xd5, 8, -8, 32256, -32256]);
  });

  const cases: [string, (x: number) => number, (b: number) => number][] = [
    ["u-law", g711.muLaw, g711.muLawDecode],
    ["A-law", g711.aLaw, g711.aLawDecode],
  ];
  for (const [name, encode, decode] of cases) {
    it(`${name} keeps every sample within its step (under 1/16 of the value, or 16 near zero) and its sign`, () => {
      for (const sample of [0, 1, -1, 15, -16, 100, -100, 1000, -1000, 4095, -4096, 8000, -8000, 20000, -20000, 32000, -32000, 32767, -32768]) {
        const back = decode(encode(sample));
        expect(Math.abs(back - sample)).toBeLessThanOrEqual(Math.max(16, Math.abs(sample) / 16 + 8));
        if (Math.abs(sample) > 16) expect(Math.sign(back)).toBe(Math.sign(sample));
      }
    });
    it(`${name} decodes every byte to a 16-bit value, and re-encodes it to the same byte`, () => {
      for (let byte = 0; byte < 256; byte++) {
        const value = decode(byte);
        expect(Math.abs(value)).toBeLessThanOrEqual(32768);
        // Two codes mean zero in each law; every other code survives the round trip.
        if (Math.abs(value) > 8) expect(encode(value)).toBe(byte);
      }
    });
  }
});

describe("resampling and encoding", () => {
  it("resamples by the ratio of the rates, keeping a constant signal constant", () => {
    const flat = new Int16Array(1600).fill(1234);
    const up = resample(flat, 16000, 24000);
    expect(up.length).toBe(2400);
    expect(new Set(up)).toEqual(new Set([1234]));
    expect(resample(flat, 16000, 8000).length).toBe(800);
    expect(resample(flat, 24000, 24000)).toBe(flat);
  });

  it("encodes 16 kHz PCM as 24 kHz PCM, u-law or A-law at 8 kHz, with durations that agree", () => {
    const second = pcmBytes(Int16Array.from({ length: 16000 }, (_, i) => Math.round(8000 * Math.sin(i / 10))));
    const pcm = encodeOutput(second, 16000, "audio/pcm");
    const ulaw = encodeOutput(second, 16000, "audio/pcmu");
    const alaw = encodeOutput(second, 16000, "audio/pcma");
    expect(pcm.byteLength).toBe(48000);
    expect(ulaw.byteLength).toBe(8000);
    expect(alaw.byteLength).toBe(8000);
    expect(durationMs(pcm.byteLength, "audio/pcm")).toBe(1000);
    expect(durationMs(ulaw.byteLength, "audio/pcmu")).toBe(1000);
    // Input in G.711 comes back as PCM at 8 kHz, close to the signal.
    const decoded = pcmSamples(decodeInput(ulaw, "audio/pcmu"));
    const reference = resample(pcmSamples(second), 16000, 8000);
    expect(decoded.length).toBe(reference.length);
    const error = decoded.reduce((sum, s, i) => sum + Math.abs(s - reference[i]!), 0) / decoded.length;
    expect(error).toBeLessThan(200);
  });
});

import { describe, expect, it } from "bun:test";
import { Resampler } from "../../../src/engine/tts/audio/resample.ts";

const tone = (rate: number, hz: number, seconds: number, amplitude = 10000) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)));

/** Amplitude of the `hz` component of `x` (sampled at `rate`), by correlation with a sine and a cosine. */
function amplitudeAt(x: Float32Array, rate: number, hz: number): number {
  let re = 0;
  let im = 0;
  for (let i = 0; i < x.length; i++) {
    re += x[i] * Math.cos((2 * Math.PI * hz * i) / rate);
    im += x[i] * Math.sin((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / x.length;
}

const all = (r: Resampler, parts: Int16Array[]) => {
  const out: number[] = [];
  for (const part of parts) out.push(...r.write(part));
  out.push(...r.end());
  return Float32Array.from(out);
};

describe("resampling speech to 44.1 kHz", () => {
  it("keeps a tone's pitch and loudness, and the length of the audio", () => {
    for (const [rate, hz] of [
      [16000, 440],
      [16000, 3000],
      [24000, 5000],
    ]) {
      const out = all(new Resampler(rate, 44100), [tone(rate, hz, 1)]);
      expect(out.length).toBe(44100);
      const middle = out.subarray(2000, 42000);
      expect(amplitudeAt(middle, 44100, hz)).toBeCloseTo(10000 / 32768, 2);
      for (let i = 2000; i < 42000; i++) expect(Math.abs(out[i] - (10000 / 32768) * Math.sin((2 * Math.PI * hz * i) / 44100))).toBeLessThan(0.003);
    }
  });

  it("adds no delay: a click stays at its moment", () => {
    const click = new Int16Array(16000);
    click[8000] = 30000;
    const out = all(new Resampler(16000, 44100), [click]);
    let loudest = 0;
    for (let i = 1; i < out.length; i++) if (Math.abs(out[i]) > Math.abs(out[loudest])) loudest = i;
    expect(loudest).toBe(22050);
  });

  it("gives the same output whatever the slices the input arrives in", () => {
    const input = tone(16000, 1234, 0.7);
    const whole = all(new Resampler(16000, 44100), [input]);
    const sizes = [1, 7, 160, 999, 3];
    const parts: Int16Array[] = [];
    for (let at = 0, k = 0; at < input.length; at += sizes[k++ % sizes.length]) parts.push(input.subarray(at, at + sizes[k % sizes.length]));
    const sliced = all(new Resampler(16000, 44100), parts);
    expect(sliced.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(sliced[i]).toBeCloseTo(whole[i], 6);
    // And a resampler starts afresh after end().
    const reused = new Resampler(16000, 44100);
    all(reused, [tone(16000, 300, 0.2)]);
    expect(Array.from(all(reused, [input]))).toEqual(Array.from(whole));
  });

  it("leaves out the mirror images that upsampling makes above the input's band", () => {
    // A 6 kHz tone at 16 kHz has images at 10 kHz and 22 kHz once the samples are spaced for 44.1 kHz.
    const out = all(new Resampler(16000, 44100), [tone(16000, 6000, 1)]).subarray(1000, 43000);
    expect(amplitudeAt(out, 44100, 6000)).toBeGreaterThan(0.25);
    expect(amplitudeAt(out, 44100, 10000)).toBeLessThan(0.3 * 10 ** (-50 / 20)); // at least 50 dB down
    // Silence stays silence.
    expect(all(new Resampler(16000, 44100), [new Int16Array(5000)]).every((v) => v === 0)).toBe(true);
  });

  it("refuses a rate that is not a positive whole number", () => {
    expect(() => new Resampler(0, 44100)).toThrow("sample rates must be positive whole numbers");
    expect(() => new Resampler(16000.5, 44100)).toThrow("sample rates must be positive whole numbers");
  });
});

/**
 * The MP3 path as a client hears it: flite's 16 kHz speech (and 24 kHz PCM, as an OpenAI-compatible voice
 * sends) resampled to 44.1 kHz and encoded by LAME, decoded again with a real decoder, compared with the input.
 */
import { describe, expect, it } from "bun:test";
import { Mp3Encoder } from "../../../src/engine/tts/audio/mp3-encoder.ts";
import { Resampler } from "../../../src/engine/tts/audio/resample.ts";
import { runFlite } from "../../../src/engine/tts/flite/run-flite.ts";
import { DEFAULT_FLITE_VOICE } from "../../../src/engine/tts/flite/voices.ts";
import { loadFliteModule } from "../../../src/engine/tts/flite/wasm.ts";
import { MP3_DELAY_SAMPLES } from "../../../src/engine/tts/marks/chunk-marks.ts";
import { decodeMp3, expectUnityFrames, mainDataBegins } from "./helpers.ts";

/** Signal-to-noise ratio (dB) of `decoded` against `reference`, `decoded` being `delay` samples late. */
function snr(reference: Float32Array, decoded: Float32Array, delay: number): number {
  let signal = 0;
  let noise = 0;
  for (let i = 0; i < reference.length; i++) {
    signal += reference[i] ** 2;
    noise += (reference[i] - (decoded[i + delay] ?? 0)) ** 2;
  }
  return 10 * Math.log10(signal / noise);
}

function resampled(samples: Int16Array, rate: number): Float32Array {
  const resampler = new Resampler(rate, 44100);
  const head = resampler.write(samples);
  const tail = resampler.end();
  const out = new Float32Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

describe("the MP3 path", () => {
  it("keeps flite's speech: 44.1 kHz MPEG-1 frames a fresh decoder plays, close to the input, MP3_DELAY_SAMPLES late", async () => {
    const module = await loadFliteModule();
    const encoder = await Mp3Encoder.create();
    for (const text of ["Hi there!", "Once upon a time, a little owl named Hoot lived in a tall oak tree at the edge of the forest."]) {
      const pcm = await runFlite(module, text, DEFAULT_FLITE_VOICE, {});
      const data = encoder.encode(pcm.samples, pcm.sampleRate, () => false)!;
      const frames = expectUnityFrames(data);
      expect(mainDataBegins(data)[0]).toBe(0);
      const decoded = await decodeMp3(data);
      expect(decoded.errors).toBe(0);
      expect(decoded.samples.length).toBe(frames * 1152);
      // Measured: about 28-30 dB; 48 kbps CBR gave 23-25 dB.
      expect(snr(resampled(pcm.samples, pcm.sampleRate), decoded.samples, MP3_DELAY_SAMPLES)).toBeGreaterThan(24);
      // And smaller than 48 kbps would be.
      expect((data.length * 8) / (decoded.samples.length / 44100)).toBeLessThan(48_000);
    }
  });

  it("encodes 24 kHz PCM streamed in pieces the same way", async () => {
    const encoder = await Mp3Encoder.create();
    const samples = Int16Array.from({ length: 24000 }, (_, i) =>
      Math.round(6000 * Math.sin((2 * Math.PI * 220 * i) / 24000) + 3000 * Math.sin((2 * Math.PI * 1330 * i) / 24000)),
    );
    const stream = encoder.start(24000);
    for (let at = 0; at < samples.length; at += 1000) stream.write(samples.subarray(at, at + 1000));
    const data = stream.end();
    expectUnityFrames(data);
    const decoded = await decodeMp3(data);
    expect(snr(resampled(samples, 24000).subarray(2000, 40000), decoded.samples.subarray(2000), MP3_DELAY_SAMPLES)).toBeGreaterThan(20);
  });
});

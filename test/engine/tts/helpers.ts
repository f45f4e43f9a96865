/**
 * What the tts tests check audio with: a real MP3 decoder (mpg123 compiled to wasm), frame-level checks,
 * a crude pitch estimate, and a logger that keeps every line so a test can prove no text was logged.
 */
import { expect } from "bun:test";
import { MPEGDecoder } from "mpg123-decoder";
import { type FrameHeader, parseFrameHeader, splitFrames } from "../../../src/engine/tts/audio/mp3-frames.ts";
import type { AudioChunk, TtsLogger } from "../../../src/engine/tts/index.ts";
import { type SpeechMarks, VISEMES } from "../../../src/engine/vocabulary.ts";

export interface Decoded {
  samples: Float32Array;
  sampleRate: number;
  errors: number;
}

/** Decodes one MP3 stream (a sentence's chunks joined) with a fresh decoder. */
export async function decodeMp3(bytes: Uint8Array): Promise<Decoded> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const result = decoder.decode(bytes);
    return { samples: result.channelData[0] ?? new Float32Array(0), sampleRate: result.sampleRate, errors: result.errors.length };
  } finally {
    decoder.free();
  }
}

/** Reads little-endian 16-bit samples as floats in [-1, 1). */
export function decodePcm16(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

export function join(chunks: AudioChunk[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.data.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk.data, offset);
    offset += chunk.data.length;
  }
  return out;
}

export function rms(samples: Float32Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/** Frame headers of a chunk, throwing if the chunk does not start on a sync or ends inside a frame. */
export function framesOf(bytes: Uint8Array): FrameHeader[] {
  return splitFrames(bytes).map((frame) => frame.header);
}

/**
 * Checks that `bytes` is whole frames of what Unity plays: every frame starts `FF FB` (MPEG-1, Layer III, no
 * CRC), 44.1 kHz, mono. Returns the number of frames; throws (with the offending offset) otherwise.
 */
export function expectUnityFrames(bytes: Uint8Array): number {
  const frames = splitFrames(bytes);
  for (const { offset, header } of frames) {
    const bits = [bytes[offset], bytes[offset + 1], header.version, header.layer, header.sampleRate, header.channels];
    if (bits.join() !== [0xff, 0xfb, 1, 3, 44100, 1].join()) throw new Error(`frame at ${offset} is ${bits.join()}`);
  }
  return frames.length;
}

/**
 * main_data_begin of every MPEG-1 Layer III frame: 0 means the frame takes no bits from earlier frames (no bit
 * reservoir), so it decodes on its own.
 */
export function mainDataBegins(bytes: Uint8Array): number[] {
  return splitFrames(bytes).map(({ offset }) => {
    const protectedByCrc = (bytes[offset + 1] & 1) === 0;
    const side = offset + 4 + (protectedByCrc ? 2 : 0);
    return (bytes[side] << 1) | (bytes[side + 1] >> 7);
  });
}

export { parseFrameHeader };

/** Median pitch (Hz) of voiced 40 ms windows, by normalized autocorrelation. */
export function medianPitch(samples: Float32Array, sampleRate: number): number {
  const win = Math.round(sampleRate * 0.04);
  const hop = Math.round(sampleRate * 0.02);
  const found: number[] = [];
  for (let start = 0; start + win * 2 < samples.length; start += hop) {
    let energy = 0;
    for (let i = 0; i < win; i++) energy += samples[start + i] ** 2;
    if (Math.sqrt(energy / win) < 0.02) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = Math.round(sampleRate / 400); lag < Math.round(sampleRate / 70); lag++) {
      let c = 0;
      let a = 0;
      let b = 0;
      for (let i = 0; i < win; i++) {
        c += samples[start + i] * samples[start + i + lag];
        a += samples[start + i] ** 2;
        b += samples[start + i + lag] ** 2;
      }
      const r = c / Math.sqrt(a * b + 1e-12);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.7) found.push(sampleRate / bestLag);
  }
  found.sort((x, y) => x - y);
  return found[Math.floor(found.length / 2)] ?? 0;
}

/** Collects every chunk of a stream, with the time the first one arrived. */
export async function collect(stream: AsyncIterable<AudioChunk>): Promise<{ chunks: AudioChunk[]; firstMs: number; totalMs: number }> {
  const started = performance.now();
  const chunks: AudioChunk[] = [];
  let firstMs = -1;
  for await (const chunk of stream) {
    if (firstMs < 0) firstMs = performance.now() - started;
    chunks.push(chunk);
  }
  return { chunks, firstMs, totalMs: performance.now() - started };
}

/** Whatever `promise` throws (or null). */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return null;
  } catch (error) {
    return error;
  }
}

/** A logger that keeps every line. */
export function recordingLogger(): TtsLogger & { lines: { level: string; fields: Record<string, unknown>; message: string }[] } {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/**
 * Checks the rules every audio message's marks keep (PROTOCOL.md section 6): visemes from the 15, contiguous from 0
 * to `seconds`, none of zero length, neighbours never the same; words inside the message with a length.
 */
export function expectWellFormed(marks: Pick<SpeechMarks, "subtitles" | "visemes">, seconds: number): void {
  let at = 0;
  marks.visemes.forEach((v, i) => {
    expect(VISEMES).toContain(v.viseme);
    expect(v.start_time_sec).toBeCloseTo(at, 6);
    expect(v.duration_sec).toBeGreaterThan(0);
    if (i > 0) expect(v.viseme).not.toBe(marks.visemes[i - 1].viseme);
    at = v.start_time_sec + v.duration_sec;
  });
  expect(at).toBeCloseTo(seconds, 5);
  for (const word of marks.subtitles) {
    expect(word.start_time_sec).toBeGreaterThanOrEqual(0);
    expect(word.start_time_sec).toBeLessThanOrEqual(seconds);
    expect(word.duration_sec).toBeGreaterThan(0);
  }
}

/** RMS of each 10 ms frame. */
export function frameEnergy(samples: Float32Array, rate: number): number[] {
  const size = Math.round(rate / 100);
  const out: number[] = [];
  for (let start = 0; start + size <= samples.length; start += size) {
    let sum = 0;
    for (let i = start; i < start + size; i++) sum += samples[i] * samples[i];
    out.push(Math.sqrt(sum / size));
  }
  return out;
}

type Timed = { start_time_sec: number; duration_sec: number };

/**
 * The marks agree with the sound (issue 27's goal): at least 90% of the loudest tenth of 10 ms frames fall inside a
 * viseme other than `sil`, and every word's span holds a voiced frame (above 5% of the loudest). One check for the
 * engine, the interact socket and the Realtime door.
 * @example expectMarksMatchSound(decoded.samples, decoded.sampleRate, marks)
 */
export function expectMarksMatchSound(
  samples: Float32Array,
  rate: number,
  marks: { subtitles: (Timed & { text: string })[]; visemes: (Timed & { viseme: string })[] },
): void {
  const energy = frameEnergy(samples, rate);
  const visemeAt = (t: number) => marks.visemes.find((v) => t >= v.start_time_sec && t < v.start_time_sec + v.duration_sec)?.viseme ?? "sil";
  const loudest = energy
    .map((value, k) => ({ value, t: (k + 0.5) / 100 }))
    .sort((a, b) => b.value - a.value)
    .slice(0, Math.ceil(energy.length / 10));
  expect(loudest.filter((frame) => visemeAt(frame.t) !== "sil").length / loudest.length).toBeGreaterThanOrEqual(0.9);
  const peak = Math.max(...energy);
  for (const word of marks.subtitles) {
    const span = energy.slice(Math.floor(word.start_time_sec * 100), Math.ceil((word.start_time_sec + word.duration_sec) * 100));
    expect({ word: word.text, voiced: span.some((value) => value > peak * 0.05) }).toEqual({ word: word.text, voiced: true });
  }
}

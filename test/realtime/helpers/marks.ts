/**
 * The speech marks of a Realtime response's audio deltas put on the clock of the whole reply, and the check that
 * they agree with the sound: the loudest tenth of the 10 ms frames falls inside mouth shapes that are not `sil`.
 * (The same energy check as test/interact/speech-marks.test.ts and test/engine/tts/local-marks.test.ts, whose
 * helpers are local to those files; the integrator may move the three into one shared helper.)
 */
import { expect } from "bun:test";
import { decodePcm16, expectWellFormed } from "../../engine/tts/helpers.ts";
import type { Event } from "./tls.ts";

export interface Timeline {
  samples: Float32Array;
  rate: number;
  words: { text: string; start_time_sec: number; duration_sec: number }[];
  visemes: { viseme: string; start_time_sec: number; duration_sec: number }[];
}

/**
 * Checks each PCM 24 kHz delta's marks (duration to the sample, visemes tiling it) and joins them on one clock.
 * @example const timeline = pcmTimeline(events.filter((e) => e.type === "response.output_audio.delta"))
 */
export function pcmTimeline(deltas: Event[]): Timeline {
  const parts: Float32Array[] = [];
  const words: Timeline["words"] = [];
  const visemes: Timeline["visemes"] = [];
  let at = 0;
  for (const delta of deltas) {
    const bytes = Buffer.from(delta.delta, "base64");
    const samples = decodePcm16(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    // The delta's own length: its PCM bytes / 2 / 24000.
    expect(delta.hoot.duration_sec).toBeCloseTo(bytes.byteLength / 2 / 24000, 6);
    expectWellFormed({ subtitles: delta.hoot.subtitles ?? [], visemes: delta.hoot.visemes }, bytes.byteLength / 2 / 24000);
    parts.push(samples);
    for (const w of delta.hoot.subtitles ?? []) words.push({ ...w, start_time_sec: w.start_time_sec + at });
    for (const v of delta.hoot.visemes) visemes.push({ ...v, start_time_sec: v.start_time_sec + at });
    at += delta.hoot.duration_sec;
  }
  const samples = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    samples.set(part, offset);
    offset += part.length;
  }
  return { samples, rate: 24000, words, visemes };
}

/** RMS of each 10 ms frame. */
function frameEnergy(samples: Float32Array, rate: number): number[] {
  const size = Math.round(rate / 100);
  const out: number[] = [];
  for (let start = 0; start + size <= samples.length; start += size) {
    let sum = 0;
    for (let i = start; i < start + size; i++) sum += samples[i]! * samples[i]!;
    out.push(Math.sqrt(sum / size));
  }
  return out;
}

/** The share of the loudest tenth of 10 ms frames that fall inside a viseme other than `sil`. */
export function loudFramesInsideVisemes(timeline: Timeline): number {
  const energy = frameEnergy(timeline.samples, timeline.rate);
  const visemeAt = (t: number) => timeline.visemes.find((v) => t >= v.start_time_sec && t < v.start_time_sec + v.duration_sec)?.viseme ?? "sil";
  const loudest = energy
    .map((value, k) => ({ value, t: (k + 0.5) / 100 }))
    .sort((a, b) => b.value - a.value)
    .slice(0, Math.ceil(energy.length / 10));
  return loudest.filter((frame) => visemeAt(frame.t) !== "sil").length / loudest.length;
}

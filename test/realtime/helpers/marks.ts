/**
 * The speech marks of a Realtime response's audio deltas put on the clock of the whole reply, and the check that
 * they agree with the sound (test/engine/tts/helpers.ts's, shared with the engine's and the interact socket's tests).
 */
import { expect } from "bun:test";
import { decodePcm16, expectMarksMatchSound, expectWellFormed } from "../../engine/tts/helpers.ts";
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

/** The sound of the whole reply agrees with the marks (the engine's and the interact socket's own check). */
export function expectTimelineMatchesSound(timeline: Timeline): void {
  expectMarksMatchSound(timeline.samples, timeline.rate, { subtitles: timeline.words, visemes: timeline.visemes });
}

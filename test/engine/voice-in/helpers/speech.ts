/**
 * Test audio for voice input: a sentence spoken by hoot's own TTS (Flite, 16 kHz), padded with 0.5 s of
 * silence before and 1.2 s after, then put into every format a client sends. Formats hoot cannot encode
 * (Ogg Vorbis, Ogg Opus, WebM Opus, MP3 with ID3) are committed fixtures made by scripts/voice-fixtures.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Mp3Encoder } from "../../../../src/engine/tts/audio/mp3-encoder.ts";
import { LocalSpeechProvider } from "../../../../src/engine/tts/index.ts";
import { Resampler } from "../../../../src/engine/voice-in/resample.ts";

export const FIXTURES = join(import.meta.dir, "../../../fixtures/voice");
export const LEAD_S = 0.5;
export const TAIL_S = 1.2;

/** A committed fixture's bytes. */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, name)));
}

const cache = new Map<string, Int16Array>();

/** The sentence spoken by Flite at 16 kHz with the silences around it; also reports where the speech is. */
export async function speech(text = "I want to play with my puppy in the garden.", voice?: string): Promise<Int16Array> {
  const key = `${voice ?? ""}|${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const tts = new LocalSpeechProvider({ workers: 1 });
  const parts: Uint8Array[] = [];
  try {
    for await (const chunk of tts.synthesize({ text, voice: voice ? { voice_id: voice } : {}, format: "pcm16", signal: new AbortController().signal }))
      parts.push(chunk.data);
  } finally {
    await tts.close();
  }
  const bytes = Buffer.concat(parts);
  const spoken = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  const out = new Int16Array(Math.round((LEAD_S + TAIL_S) * 16000) + spoken.length);
  out.set(spoken, LEAD_S * 16000);
  cache.set(key, out);
  return out;
}

export function toFloat(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i] / 32768;
  return out;
}

/** Resamples 16 kHz speech to `rate` (hoot's own resampler, whole-signal). */
export function resampled(samples: Int16Array, rate: number): Float32Array {
  if (rate === 16000) return toFloat(samples);
  const r = new Resampler(16000, rate);
  const a = r.push(toFloat(samples));
  const b = r.flush();
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Little-endian 16-bit PCM bytes. */
export function pcm16Bytes(samples: Float32Array | Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples.length; i++) {
    const v = samples instanceof Int16Array ? samples[i] : Math.max(-32768, Math.min(32767, Math.round(samples[i] * 32768)));
    view.setInt16(i * 2, v, true);
  }
  return out;
}

/** A WAV of the given layout (the same signal on every channel). */
export function wavBytes(samples: Float32Array, rate: number, channels: number, format: "int16" | "float32" | "int24"): Uint8Array {
  const bytesPer = format === "int16" ? 2 : format === "int24" ? 3 : 4;
  const dataLength = samples.length * channels * bytesPer;
  const out = new Uint8Array(44 + dataLength);
  const view = new DataView(out.buffer);
  const tag = (at: number, s: string) => [...s].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  tag(0, "RIFF");
  view.setUint32(4, 36 + dataLength, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, format === "float32" ? 3 : 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * channels * bytesPer, true);
  view.setUint16(32, channels * bytesPer, true);
  view.setUint16(34, bytesPer * 8, true);
  tag(36, "data");
  view.setUint32(40, dataLength, true);
  let at = 44;
  for (const s of samples) {
    for (let c = 0; c < channels; c++) {
      if (format === "float32") view.setFloat32(at, s, true);
      else if (format === "int16") view.setInt16(at, Math.max(-32768, Math.min(32767, Math.round(s * 32768))), true);
      else {
        const v = Math.max(-8388608, Math.min(8388607, Math.round(s * 8388608)));
        out[at] = v & 0xff;
        out[at + 1] = (v >> 8) & 0xff;
        out[at + 2] = (v >> 16) & 0xff;
      }
      at += bytesPer;
    }
  }
  return out;
}

/** MP3 as hoot's speech engine writes it (LAME, MPEG-1 Layer III, 44.1 kHz mono, no ID3). */
export async function mp3Bytes(samples16k: Int16Array): Promise<Uint8Array> {
  const encoder = await Mp3Encoder.create();
  return encoder.encode(samples16k, 16000, () => false)!;
}

/** Cuts bytes into pieces of `size` (the last may be shorter). */
export function chunks(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** Reads a 16 kHz mono 16-bit WAV (as the recogniser gets it); throws if it is anything else. */
export function readWav16k(wav: Uint8Array): Int16Array {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.length);
  const tag = (at: number) => String.fromCharCode(...wav.subarray(at, at + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE" || tag(12) !== "fmt " || tag(36) !== "data") throw new Error("not a canonical WAV");
  if (view.getUint16(20, true) !== 1 || view.getUint16(22, true) !== 1 || view.getUint32(24, true) !== 16000 || view.getUint16(34, true) !== 16) {
    throw new Error("not 16 kHz mono 16-bit PCM");
  }
  if (view.getUint32(40, true) !== wav.length - 44) throw new Error("wrong data length");
  const copy = wav.slice(44);
  return new Int16Array(copy.buffer, 0, copy.length / 2);
}

/** RMS envelope in 20 ms windows. */
function envelope(samples: Int16Array): Float32Array {
  const w = 320;
  const out = new Float32Array(Math.floor(samples.length / w));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let j = 0; j < w; j++) sum += samples[i * w + j] ** 2;
    out[i] = Math.sqrt(sum / w);
  }
  return out;
}

/**
 * How alike two 16 kHz signals sound, as the best Pearson correlation of their 20 ms loudness envelopes
 * over shifts of up to ±100 ms (lossy codecs and their delays keep it above 0.9; noise or the wrong
 * sentence lands far below).
 */
export function envelopeMatch(a: Int16Array, b: Int16Array): number {
  const ea = envelope(a);
  const eb = envelope(b);
  let best = -1;
  for (let shift = -5; shift <= 5; shift++) {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < ea.length; i++) {
      const j = i + shift;
      if (j >= 0 && j < eb.length) {
        xs.push(ea[i]);
        ys.push(eb[j]);
      }
    }
    best = Math.max(best, pearson(xs, ys));
  }
  return best;
}

function pearson(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy || 1);
}

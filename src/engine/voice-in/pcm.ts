/**
 * Raw PCM and WAV: the two formats whose samples need no codec. Both decoders are incremental (a frame cut
 * between two chunks is completed by the next one) and hand back mono float samples at the source rate.
 */
import { InvalidAudio } from "./errors.ts";

export interface RawAudio {
  samples: Float32Array;
  sampleRate: number;
}

/** Signed 16-bit little-endian mono PCM at a given rate (`audio/pcm`). */
export class PcmDecoder {
  private carry: number | null = null;

  constructor(readonly sampleRate: number) {}

  /** Decodes one chunk; an odd trailing byte waits for the next chunk. */
  push(bytes: Uint8Array): RawAudio {
    let data = bytes;
    if (this.carry !== null) {
      data = new Uint8Array(bytes.length + 1);
      data[0] = this.carry;
      data.set(bytes, 1);
      this.carry = null;
    }
    const count = data.length >> 1;
    if (data.length & 1) this.carry = data[data.length - 1];
    const view = new DataView(data.buffer, data.byteOffset, count * 2);
    const samples = new Float32Array(count);
    for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true) / 32768;
    return { samples, sampleRate: this.sampleRate };
  }
}

type SampleFormat = { kind: "int"; bits: 8 | 16 | 24 | 32 } | { kind: "float"; bits: 32 | 64 };

/** Largest header (everything before the samples) accepted, so a stream of junk chunks cannot grow it. */
const MAX_HEADER_BYTES = 64 * 1024;

/** RIFF/WAVE with PCM (8, 16, 24, 32-bit), IEEE float (32, 64-bit) or WAVE_FORMAT_EXTENSIBLE of those. */
export class WavDecoder {
  private header: Uint8Array = new Uint8Array(0);
  private format: { sample: SampleFormat; channels: number; sampleRate: number } | null = null;
  private remaining = Infinity;
  private carry: Uint8Array = new Uint8Array(0);

  get sampleRate(): number {
    return this.format?.sampleRate ?? 0;
  }

  /** Decodes one chunk. Throws InvalidAudio when the header is not a WAV this decoder reads. */
  push(bytes: Uint8Array): RawAudio {
    if (!this.format) {
      this.header = concatBytes(this.header, bytes);
      const body = this.parseHeader();
      if (body === null) {
        if (this.header.length > MAX_HEADER_BYTES) throw new InvalidAudio("the WAV header is too long or has no data chunk");
        return { samples: new Float32Array(0), sampleRate: 0 };
      }
      bytes = body;
      this.header = new Uint8Array(0);
    }
    const format = this.format!;
    if (bytes.length > this.remaining) bytes = bytes.subarray(0, this.remaining);
    this.remaining -= bytes.length;
    const data = concatBytes(this.carry, bytes);
    const frameBytes = (format.sample.bits / 8) * format.channels;
    const frames = Math.floor(data.length / frameBytes);
    this.carry = data.slice(frames * frameBytes);
    const view = new DataView(data.buffer, data.byteOffset, frames * frameBytes);
    const samples = new Float32Array(frames);
    const step = format.sample.bits / 8;
    for (let f = 0; f < frames; f++) {
      let sum = 0;
      for (let c = 0; c < format.channels; c++) sum += readSample(view, (f * format.channels + c) * step, format.sample);
      samples[f] = sum / format.channels;
    }
    return { samples, sampleRate: format.sampleRate };
  }

  /** Returns the bytes after the `data` chunk header once the header is complete, else null. */
  private parseHeader(): Uint8Array | null {
    const h = this.header;
    if (h.length < 12) return null;
    const view = new DataView(h.buffer, h.byteOffset, h.length);
    if (tag(h, 0) !== "RIFF" || tag(h, 8) !== "WAVE") throw new InvalidAudio("the bytes start with RIFF but are not a WAVE file");
    let at = 12;
    while (at + 8 <= h.length) {
      const id = tag(h, at);
      const size = view.getUint32(at + 4, true);
      if (id === "data") {
        if (!this.format) throw new InvalidAudio("the WAV file has no fmt chunk before its data");
        // 0 and 0xFFFFFFFF are what streaming writers put when they do not know the length yet.
        this.remaining = size === 0 || size === 0xffffffff ? Infinity : size;
        return h.subarray(at + 8);
      }
      if (at + 8 + size > h.length) return null;
      if (id === "fmt ") this.format = parseFmt(new DataView(h.buffer, h.byteOffset + at + 8, size));
      at += 8 + size + (size & 1);
    }
    return null;
  }
}

function parseFmt(fmt: DataView): { sample: SampleFormat; channels: number; sampleRate: number } {
  if (fmt.byteLength < 16) throw new InvalidAudio("the WAV fmt chunk is too short");
  let code = fmt.getUint16(0, true);
  const channels = fmt.getUint16(2, true);
  const sampleRate = fmt.getUint32(4, true);
  const bits = fmt.getUint16(14, true);
  // WAVE_FORMAT_EXTENSIBLE keeps the real format code in the first two bytes of its sub-format GUID.
  if (code === 0xfffe && fmt.byteLength >= 26) code = fmt.getUint16(24, true);
  if (channels < 1 || channels > 8) throw new InvalidAudio(`a WAV with ${channels} channels is not supported`);
  if (sampleRate < 4000 || sampleRate > 384000) throw new InvalidAudio(`a WAV at ${sampleRate} Hz is not supported`);
  if (code === 1 && (bits === 8 || bits === 16 || bits === 24 || bits === 32)) return { sample: { kind: "int", bits }, channels, sampleRate };
  if (code === 3 && (bits === 32 || bits === 64)) return { sample: { kind: "float", bits }, channels, sampleRate };
  throw new InvalidAudio(`WAV format ${code} with ${bits}-bit samples is not supported (send 16-bit PCM)`);
}

function readSample(view: DataView, at: number, format: SampleFormat): number {
  if (format.kind === "float") return format.bits === 32 ? view.getFloat32(at, true) : view.getFloat64(at, true);
  switch (format.bits) {
    case 8:
      return (view.getUint8(at) - 128) / 128;
    case 16:
      return view.getInt16(at, true) / 32768;
    case 24:
      return (view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 8388608;
    default:
      return view.getInt32(at, true) / 2147483648;
  }
}

function tag(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * A 16-bit mono WAV file around `samples` (what the recogniser is sent).
 * @example const wav = encodeWav(int16Samples, 16000)
 */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  const out = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(out.buffer);
  const write = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  write(0, "RIFF");
  view.setUint32(4, 36 + samples.length * 2, true);
  write(8, "WAVE");
  write(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  write(36, "data");
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + i * 2, samples[i], true);
  return out;
}

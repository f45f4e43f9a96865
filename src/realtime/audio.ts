/**
 * The Realtime wire's audio formats (PROTOCOL.md section 7): 16-bit little-endian mono PCM at 24 kHz
 * (`audio/pcm`, the default both ways) and G.711 u-law (`audio/pcmu`) and A-law (`audio/pcma`) at 8 kHz.
 * hoot's speech comes as PCM at the speech engine's own rate (16 kHz locally, 24 kHz from an OpenAI-compatible
 * server): it is resampled here, then encoded. Input in G.711 is decoded to PCM at 8 kHz, which the voice
 * input resamples itself.
 */

export type AudioFormatType = "audio/pcm" | "audio/pcmu" | "audio/pcma";

/** The sample rate of each format on the wire. */
export const FORMAT_RATE: Record<AudioFormatType, number> = { "audio/pcm": 24000, "audio/pcmu": 8000, "audio/pcma": 8000 };

/** Samples of little-endian PCM16 bytes (a trailing odd byte is dropped). */
export function pcmSamples(bytes: Uint8Array): Int16Array {
  const count = bytes.byteLength >> 1;
  const samples = new Int16Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true);
  return samples;
}

/** Little-endian bytes of PCM16 samples. */
export function pcmBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] as number, true);
  return bytes;
}

/**
 * Linear resampling, good enough for speech on its way to a speaker (the voice input has its own filter).
 * @example resample(new Int16Array([0, 100]), 16000, 24000).length // 3
 */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to || samples.length === 0) return samples;
  const length = Math.max(1, Math.round((samples.length * to) / from));
  const out = new Int16Array(length);
  const step = from / to;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const left = Math.floor(position);
    const a = samples[Math.min(left, samples.length - 1)] as number;
    const b = samples[Math.min(left + 1, samples.length - 1)] as number;
    out[i] = Math.round(a + (b - a) * (position - left));
  }
  return out;
}

/** One PCM16 sample as G.711 u-law. */
function muLaw(sample: number): number {
  const BIAS = 0x84;
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(sample), 32635) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  magnitude = sign | (exponent << 4) | mantissa;
  return ~magnitude & 0xff;
}

/** One G.711 u-law byte as PCM16. */
function muLawDecode(byte: number): number {
  const value = ~byte & 0xff;
  const exponent = (value >> 4) & 0x07;
  const magnitude = ((((value & 0x0f) << 3) + 0x84) << exponent) - 0x84;
  return value & 0x80 ? -magnitude : magnitude;
}

/** One PCM16 sample as G.711 A-law (the segment search of the ITU reference coder). */
function aLaw(sample: number): number {
  let value = sample >> 3;
  let mask = 0xd5;
  if (value < 0) {
    mask = 0x55;
    value = -value - 1;
  }
  let segment = 0;
  while (segment < 8 && value > (0x20 << segment) - 1) segment++;
  if (segment >= 8) return 0x7f ^ mask;
  const mantissa = segment < 2 ? (value >> 1) & 0x0f : (value >> segment) & 0x0f;
  return ((segment << 4) | mantissa) ^ mask;
}

/** One G.711 A-law byte as PCM16. */
function aLawDecode(byte: number): number {
  const value = byte ^ 0x55;
  const exponent = (value >> 4) & 0x07;
  const mantissa = value & 0x0f;
  const magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  return value & 0x80 ? magnitude : -magnitude;
}

/**
 * Speech from the engine (PCM16 bytes at `rate`) in a wire format.
 * @example encodeOutput(pcm, 16000, "audio/pcmu") // u-law bytes at 8 kHz
 */
export function encodeOutput(pcm: Uint8Array, rate: number, format: AudioFormatType): Uint8Array {
  const samples = resample(pcmSamples(pcm), rate, FORMAT_RATE[format]);
  if (format === "audio/pcm") return pcmBytes(samples);
  const encode = format === "audio/pcmu" ? muLaw : aLaw;
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = encode(samples[i] as number);
  return out;
}

/** Input audio in a wire format as PCM16 bytes, at FORMAT_RATE[format]. */
export function decodeInput(bytes: Uint8Array, format: AudioFormatType): Uint8Array {
  if (format === "audio/pcm") return bytes;
  const decode = format === "audio/pcmu" ? muLawDecode : aLawDecode;
  const samples = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) samples[i] = decode(bytes[i] as number);
  return pcmBytes(samples);
}

/** Milliseconds of audio in `bytes` of a wire format. */
export function durationMs(bytes: number, format: AudioFormatType): number {
  const perSample = format === "audio/pcm" ? 2 : 1;
  return (bytes / perSample / FORMAT_RATE[format]) * 1000;
}

/** G.711 round trips, exposed for the codec tests. */
export const g711 = { muLaw, muLawDecode, aLaw, aLawDecode };

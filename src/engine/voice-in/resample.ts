/**
 * Streaming sample-rate conversion to the recogniser's 16 kHz, for any input rate (8 kHz telephony to
 * 96 kHz studio WAV). A windowed-sinc (Blackman) interpolator whose cutoff is the lower of the two Nyquist
 * frequencies, so downsampling 48 kHz or 44.1 kHz speech does not fold energy above 8 kHz back into the
 * band the recogniser and the VAD listen to. State (the last input samples and the fractional position) is
 * kept between chunks, so a stream cut into arbitrary chunks converts exactly as if it came whole.
 *
 * Hand-written on purpose: it is a few dozen lines, allocation-light, and exact across chunk boundaries;
 * the WebAssembly ports of libraries such as the Speex resampler ship no JavaScript API to stream through.
 */

export const TARGET_RATE = 16000;

/** Kernel half-width in input samples at the cutoff; 16 gives > 60 dB stopband for speech. */
const HALF_WIDTH = 16;

export class Resampler {
  private readonly step: number;
  private readonly cutoff: number;
  private readonly halfTaps: number;
  private readonly kernel: Float32Array;
  /** Input samples kept from earlier chunks (the kernel's left wing and anything not yet consumed). */
  private history = new Float32Array(0);
  /** Position of the next output sample, in input samples, relative to history[0]. */
  private position = 0;

  constructor(
    readonly inputRate: number,
    readonly outputRate = TARGET_RATE,
  ) {
    if (!(inputRate > 0) || !(outputRate > 0)) throw new Error("sample rates must be positive");
    this.step = inputRate / outputRate;
    this.cutoff = Math.min(1, outputRate / inputRate);
    this.halfTaps = Math.ceil(HALF_WIDTH / this.cutoff);
    this.kernel = kernelTable(this.cutoff, this.halfTaps);
  }

  /**
   * Converts the next chunk; returns the output samples it makes available now (the last ~1 ms waits for
   * the next chunk or `flush`).
   * @example const out = new Resampler(48000).push(chunk48k)
   */
  push(input: Float32Array): Float32Array {
    if (this.inputRate === this.outputRate) return input;
    const data = concat(this.history, input);
    const lastUsable = data.length - 1 - this.halfTaps;
    const count = Math.max(0, Math.floor((lastUsable - this.position) / this.step) + 1);
    const out = new Float32Array(count);
    for (let n = 0; n < count; n++) out[n] = this.sampleAt(data, this.position + n * this.step);
    this.position += count * this.step;
    // Keep what the next outputs still need: halfTaps samples left of the next position.
    const keepFrom = Math.max(0, Math.floor(this.position) - this.halfTaps);
    this.history = data.slice(keepFrom);
    this.position -= keepFrom;
    return out;
  }

  /** Emits the samples still held back, as if the stream were followed by silence. */
  flush(): Float32Array {
    if (this.inputRate === this.outputRate) return new Float32Array(0);
    const tail = this.push(new Float32Array(this.halfTaps + 1));
    this.history = new Float32Array(0);
    this.position = 0;
    return tail;
  }

  private sampleAt(data: Float32Array, t: number): number {
    const center = Math.floor(t);
    const from = Math.max(0, center - this.halfTaps + 1);
    const to = Math.min(data.length - 1, center + this.halfTaps);
    const table = this.kernel;
    let sum = 0;
    for (let i = from; i <= to; i++) {
      // Linear interpolation in the tabulated kernel: |t - i| * RESOLUTION.
      const x = Math.abs(t - i) * RESOLUTION;
      const k = x | 0;
      const frac = x - k;
      sum += data[i] * (table[k] + (table[k + 1] - table[k]) * frac);
    }
    return sum;
  }
}

/** Kernel samples per input sample; the table's interpolation error is far below 16-bit resolution. */
const RESOLUTION = 256;
const kernels = new Map<string, Float32Array>();

/** The windowed sinc, scaled by the cutoff, tabulated from 0 to halfTaps + 1 input samples. */
function kernelTable(cutoff: number, halfTaps: number): Float32Array {
  const key = `${cutoff}:${halfTaps}`;
  const cached = kernels.get(key);
  if (cached) return cached;
  const table = new Float32Array((halfTaps + 1) * RESOLUTION + 2);
  for (let j = 0; j < table.length; j++) {
    const d = j / RESOLUTION;
    const x = d * cutoff;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    const w = d / (halfTaps + 1);
    const blackman = w >= 1 ? 0 : 0.42 + 0.5 * Math.cos(Math.PI * w) + 0.08 * Math.cos(2 * Math.PI * w);
    table[j] = sinc * blackman * cutoff;
  }
  kernels.set(key, table);
  return table;
}

function concat(a: Float32Array, b: Float32Array): Float32Array {
  if (a.length === 0) return b;
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Mixes planar channels down to one (the mean), reusing the only channel when there is one. */
export function downmix(channels: Float32Array[], samples: number): Float32Array {
  if (channels.length === 0) return new Float32Array(0);
  if (channels.length === 1) return channels[0].length === samples ? channels[0] : channels[0].subarray(0, samples);
  const out = new Float32Array(samples);
  for (const channel of channels) for (let i = 0; i < samples; i++) out[i] += channel[i];
  const scale = 1 / channels.length;
  for (let i = 0; i < samples; i++) out[i] *= scale;
  return out;
}

/** Float samples (-1..1) to 16-bit integers, clipped. */
export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i] * 32768;
    out[i] = s >= 32767 ? 32767 : s <= -32768 ? -32768 : Math.round(s);
  }
  return out;
}

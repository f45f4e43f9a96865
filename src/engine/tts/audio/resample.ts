/**
 * Resampling 16-bit mono speech to the MP3 rate (44.1 kHz) before LAME, so LAME encodes what it is given instead
 * of running its own resampler (which cost about a quarter of its time: docs/performance.md, speech).
 *
 * Data model: a polyphase windowed-sinc filter. For rates in / out = M / L (reduced), output sample n sits at input
 * position n·M/L; its value is the input around that position weighted by a Kaiser-windowed sinc, taken from a
 * table of L phases × TAPS coefficients built once per rate pair. The kernel is symmetric about the output
 * position, so the resampler adds no delay (the MP3 marks' delay stays LAME's and the decoder's alone).
 * Rules:
 * - the cut-off is 0.9 of the lower rate's Nyquist frequency (7.2 kHz from 16 kHz): speech keeps its band, and the
 *   images of upsampling (above 8 kHz) are attenuated by the Kaiser window (β 7, about 70 dB) before LAME's own
 *   low-pass sees them;
 * - each phase's coefficients sum to 1, so silence stays silence and a constant stays that constant;
 * - streaming: `write` may be called with any slice; the output is the same as for the whole sentence at once.
 *   `end` pads with silence and returns the rest: ceil(inputs · L / M) samples in all.
 */

/** Input samples on each side of an output sample (24 taps): ~0.85 ms of JS per audio-second at 16 → 44.1 kHz. */
const HALF = 12;
const TAPS = 2 * HALF;
const BETA = 7;
const CUTOFF = 0.9;

const tables = new Map<string, { table: Float32Array; up: number; down: number }>();

/** The polyphase table for `from` → `to` Hz (cached: there are two rate pairs in practice). */
function tableFor(from: number, to: number): { table: Float32Array; up: number; down: number } {
  const key = `${from}:${to}`;
  const known = tables.get(key);
  if (known) return known;
  const g = gcd(from, to);
  const up = to / g;
  const down = from / g;
  // Downsampling (not used by hoot's voices) lowers the cut-off to the output's Nyquist frequency.
  const cutoff = CUTOFF * Math.min(1, to / from);
  const table = new Float32Array(up * TAPS);
  for (let phase = 0; phase < up; phase++) {
    const frac = phase / up;
    let sum = 0;
    for (let t = 0; t < TAPS; t++) {
      const d = frac + (HALF - 1) - t; // distance from the output position to input tap t
      const x = d / HALF;
      const window = Math.abs(x) >= 1 ? 0 : bessel0(BETA * Math.sqrt(1 - x * x)) / bessel0(BETA);
      const a = Math.PI * cutoff * d;
      const h = (d === 0 ? 1 : Math.sin(a) / a) * window;
      table[phase * TAPS + t] = h;
      sum += h;
    }
    for (let t = 0; t < TAPS; t++) table[phase * TAPS + t] /= sum;
  }
  const made = { table, up, down };
  tables.set(key, made);
  return made;
}

/** A stream of 16-bit samples at `from` Hz in, float samples (-1..1) at `to` Hz out. */
export class Resampler {
  private readonly table: Float32Array;
  private readonly up: number;
  private readonly down: number;
  /** Input kept for the next outputs (as floats), from absolute input index `bufferStart - HALF`. */
  private buffer = new Float32Array(4096);
  private length = HALF; // HALF zeros of silence before the first sample
  private bufferStart = 0;
  /** Input samples received so far, and the next output's index × down (its position × up). */
  private received = 0;
  private position = 0;

  constructor(
    readonly from: number,
    readonly to: number,
  ) {
    if (!(from > 0 && to > 0 && Number.isInteger(from) && Number.isInteger(to))) throw new Error("sample rates must be positive whole numbers");
    ({ table: this.table, up: this.up, down: this.down } = tableFor(from, to));
  }

  /**
   * The output for `samples`, as far as it can be computed without the input after them.
   * @example const r = new Resampler(16000, 44100); const a = r.write(pcm); const b = r.end()
   */
  write(samples: Int16Array): Float32Array {
    this.append(samples);
    this.received += samples.length;
    return this.produce(this.received - 1);
  }

  /** The rest of the output (the input is followed by silence); the resampler starts afresh afterwards. */
  end(): Float32Array {
    const total = Math.ceil((this.received * this.up) / this.down);
    this.append(new Int16Array(TAPS));
    const out = this.produce(Number.POSITIVE_INFINITY, total);
    this.buffer.fill(0, 0, HALF);
    this.length = HALF;
    this.bufferStart = 0;
    this.received = 0;
    this.position = 0;
    return out;
  }

  /**
   * Outputs whose last tap is at most input index `lastInput`, and no more than `limit` outputs in all.
   * Output n uses inputs floor(n·down/up) - HALF + 1 .. floor(n·down/up) + HALF.
   */
  private produce(lastInput: number, limit = Number.POSITIVE_INFINITY): Float32Array {
    const { table, up, down } = this;
    const first = this.position / down;
    // Outputs n with floor(n·down/up) + HALF <= lastInput, i.e. n·down < (lastInput - HALF + 1)·up.
    const bound = Number.isFinite(lastInput) ? Math.ceil(((lastInput - HALF + 1) * up) / down) : limit;
    const count = Math.max(0, Math.min(bound, limit) - first);
    const out = new Float32Array(count);
    const buffer = this.buffer;
    let position = this.position;
    for (let i = 0; i < count; i++, position += down) {
      const whole = Math.floor(position / up);
      const base = (position - whole * up) * TAPS;
      // buffer[k] holds input index bufferStart - HALF + k; the first tap is input whole - HALF + 1.
      const at = whole + 1 - this.bufferStart;
      let acc = 0;
      for (let t = 0; t < TAPS; t++) acc += table[base + t] * buffer[at + t];
      out[i] = acc;
    }
    this.position = position;
    this.discard(Math.floor(position / up) - HALF + 1);
    return out;
  }

  /** Appends input samples as floats. */
  private append(samples: Int16Array): void {
    if (this.length + samples.length > this.buffer.length) {
      const grown = new Float32Array(Math.max(this.buffer.length * 2, this.length + samples.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    const buffer = this.buffer;
    let k = this.length;
    for (let i = 0; i < samples.length; i++) buffer[k++] = samples[i] / 32768;
    this.length = k;
  }

  /** Forgets input before absolute index `keepFrom` (it is no longer needed by any output). */
  private discard(keepFrom: number): void {
    const drop = keepFrom - (this.bufferStart - HALF);
    if (drop <= 0) return;
    const cut = Math.min(drop, this.length);
    this.buffer.copyWithin(0, cut, this.length);
    this.length -= cut;
    this.bufferStart += cut;
  }
}

/** The zeroth-order modified Bessel function of the first kind (for the Kaiser window). */
function bessel0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 40; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

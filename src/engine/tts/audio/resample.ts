/**
 * Integer-ratio upsampling (16 kHz -> 32 kHz for MP3). MPEG-1 Layer III only exists at 32, 44.1 and 48 kHz,
 * and flite speaks at 16 kHz, so every local sentence passes through here before encoding.
 * A windowed-sinc interpolator: the original samples are kept exactly and the new ones are band-limited
 * to the input's Nyquist frequency, so no image of the voice appears above 8 kHz.
 */

const HALF_TAPS = 12;

// One kernel row per output phase; rows are cached because the factor is almost always 2.
const kernels = new Map<number, Float32Array[]>();

function kernelFor(factor: number): Float32Array[] {
  const cached = kernels.get(factor);
  if (cached) return cached;
  const rows: Float32Array[] = [];
  for (let phase = 0; phase < factor; phase++) {
    const row = new Float32Array(HALF_TAPS * 2);
    for (let k = 0; k < row.length; k++) {
      // Distance (in input samples) between output point n + phase/factor and input sample n + k - HALF_TAPS + 1.
      const t = k - HALF_TAPS + 1 - phase / factor;
      const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
      const x = t / HALF_TAPS;
      const blackman = Math.abs(x) >= 1 ? 0 : 0.42 + 0.5 * Math.cos(Math.PI * x) + 0.08 * Math.cos(2 * Math.PI * x);
      row[k] = sinc * blackman;
    }
    rows.push(row);
  }
  kernels.set(factor, rows);
  return rows;
}

/**
 * Upsamples 16-bit mono PCM by a whole `factor` (1 returns the input).
 * @example upsample(samples16k, 2) // samples at 32 kHz
 */
export function upsample(input: Int16Array, factor: number): Int16Array {
  if (!Number.isInteger(factor) || factor < 1) throw new Error(`bad upsampling factor ${factor}`);
  if (factor === 1) return input;
  const rows = kernelFor(factor);
  const output = new Int16Array(input.length * factor);
  for (let n = 0; n < input.length; n++) {
    output[n * factor] = input[n];
    for (let phase = 1; phase < factor; phase++) {
      const row = rows[phase];
      let sum = 0;
      for (let k = 0; k < row.length; k++) {
        const i = n + k - HALF_TAPS + 1;
        if (i >= 0 && i < input.length) sum += row[k] * input[i];
      }
      output[n * factor + phase] = sum > 32767 ? 32767 : sum < -32768 ? -32768 : Math.round(sum);
    }
  }
  return output;
}

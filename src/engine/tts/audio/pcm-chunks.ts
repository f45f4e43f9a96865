/**
 * Raw PCM delivery: little-endian signed 16-bit mono, cut into chunks of about CHUNK_MS so that each chunk
 * is one `audio` event of a predictable size. A chunk never splits a sample (its length is always even).
 */

export const PCM_CHUNK_MS = 200;

/**
 * Cuts whole samples into little-endian byte chunks of about `PCM_CHUNK_MS`.
 * @example pcmChunks(samples, 16000).length // 5 for one second
 */
export function pcmChunks(samples: Int16Array, sampleRate: number, chunkMs = PCM_CHUNK_MS): Uint8Array[] {
  const perChunk = Math.max(1, Math.round((sampleRate * chunkMs) / 1000));
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < samples.length; start += perChunk) {
    chunks.push(toLittleEndian(samples.subarray(start, start + perChunk)));
  }
  return chunks;
}

/** Copies samples into little-endian bytes whatever the host's byte order. */
export function toLittleEndian(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i], true);
  return bytes;
}

/**
 * Re-cuts a byte stream of 16-bit samples into chunks of at least `chunkBytes`, keeping every chunk even.
 * @example const cut = new PcmRechunker(9600); cut.push(bytes); cut.end()
 */
export class PcmRechunker {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(private readonly chunkBytes: number) {}

  /** Adds bytes; returns the chunks that are now complete. */
  push(bytes: Uint8Array): Uint8Array[] {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    const out: Uint8Array[] = [];
    while (this.pendingBytes >= this.chunkBytes) out.push(this.take(this.chunkBytes));
    return out;
  }

  /** Returns what is left, minus a dangling odd byte (half a sample cannot be played). */
  end(): Uint8Array[] {
    const even = this.pendingBytes & ~1;
    return even > 0 ? [this.take(even)] : [];
  }

  private take(count: number): Uint8Array {
    const all = concat(this.pending, this.pendingBytes);
    this.pending = all.length > count ? [all.slice(count)] : [];
    this.pendingBytes = all.length - count;
    return all.subarray(0, count);
  }
}

/** Joins byte arrays into one. */
export function concat(parts: Uint8Array[], total = parts.reduce((sum, part) => sum + part.length, 0)): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Reads the RIFF/WAVE files flite writes: 16-bit PCM, mono. Anything else is refused, since the rest of the
 * pipeline assumes exactly that shape.
 */

export interface Pcm {
  samples: Int16Array;
  sampleRate: number;
}

/**
 * Parses a 16-bit mono WAV file, or returns null when it is not one.
 * @example parseWav(bytes)?.sampleRate // 16000
 */
export function parseWav(bytes: Uint8Array): Pcm | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || ascii(bytes, 0) !== "RIFF" || ascii(bytes, 8) !== "WAVE") return null;
  let sampleRate = 0;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === "fmt ") {
      const format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const bits = view.getUint16(body + 14, true);
      if (format !== 1 || channels !== 1 || bits !== 16) return null;
      sampleRate = view.getUint32(body + 4, true);
    } else if (id === "data") {
      if (sampleRate === 0) return null;
      // The data size in the header is trusted only as far as the bytes really present.
      const length = Math.min(size, bytes.length - body) >> 1;
      const samples = new Int16Array(length);
      for (let i = 0; i < length; i++) samples[i] = view.getInt16(body + i * 2, true);
      return { samples, sampleRate };
    }
    offset = body + size + (size & 1);
  }
  return null;
}

function ascii(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]);
}

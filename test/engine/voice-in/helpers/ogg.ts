/**
 * Ogg page surgery for tests and the fixture script: split a file into pages, clear the end-of-stream flag
 * (the Unity SDK never writes one), and group pages into chunks the way the Unity SDK sends them.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The Ogg page checksum (CRC-32, polynomial 0x04c11db7, no reflection), computed with the field zeroed. */
export function oggCrc(page: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < page.length; i++) {
    const byte = i >= 22 && i < 26 ? 0 : page[i];
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) & 0xff) ^ byte]) >>> 0;
  }
  return crc >>> 0;
}

/** Splits a whole Ogg stream into its pages (throws on anything that is not a page). */
export function splitOggPages(bytes: Uint8Array): Uint8Array[] {
  const pages: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (bytes[at] !== 0x4f || bytes[at + 1] !== 0x67 || bytes[at + 2] !== 0x67 || bytes[at + 3] !== 0x53) throw new Error(`no Ogg page at byte ${at}`);
    const segments = bytes[at + 26];
    let length = 27 + segments;
    for (let s = 0; s < segments; s++) length += bytes[at + 27 + s];
    pages.push(bytes.subarray(at, at + length));
    at += length;
  }
  return pages;
}

/** A copy of the stream whose pages carry no end-of-stream flag, checksums fixed. */
export function clearEndOfStream(bytes: Uint8Array): Buffer {
  const pages = splitOggPages(bytes).map((page) => {
    const copy = Buffer.from(page);
    if (copy[5] & 0x04) {
      copy[5] &= ~0x04;
      copy.writeUInt32LE(oggCrc(copy), 22);
    }
    return copy;
  });
  return Buffer.concat(pages);
}

/** Groups whole pages into chunks of at least `min` bytes (the last may be smaller), as the Unity SDK sends. */
export function unityChunks(bytes: Uint8Array, min = 512): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  let size = 0;
  for (const page of splitOggPages(bytes)) {
    pending.push(page);
    size += page.length;
    if (size >= min) {
      chunks.push(Buffer.concat(pending));
      pending = [];
      size = 0;
    }
  }
  if (pending.length) chunks.push(Buffer.concat(pending));
  return chunks;
}

/** Gives the stream a new serial number (a second utterance from the Unity SDK is a new logical stream). */
export function withSerial(bytes: Uint8Array, serial: number): Buffer {
  return Buffer.concat(
    splitOggPages(bytes).map((page) => {
      const copy = Buffer.from(page);
      copy.writeUInt32LE(serial >>> 0, 14);
      copy.writeUInt32LE(oggCrc(copy), 22);
      return copy;
    }),
  );
}

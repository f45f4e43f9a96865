/**
 * A growable byte buffer with a write position: what a file is to the in-memory WASI host (./wasi.ts).
 * Writes past the end grow it; seeking back and rewriting (a WAV writer patching its header) works.
 */
export class MemoryFile {
  bytes = new Uint8Array(64 * 1024);
  length = 0;
  position = 0;

  /** Writes at the current position, growing the buffer as needed. */
  write(chunk: Uint8Array): void {
    const end = this.position + chunk.length;
    if (end > this.bytes.length) {
      const grown = new Uint8Array(Math.max(end, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(chunk, this.position);
    this.position = end;
    this.length = Math.max(this.length, end);
  }

  /** Empties the file (its buffer is kept for the next writes). */
  clear(): void {
    this.length = 0;
    this.position = 0;
  }

  /** A copy of the bytes written so far. */
  contents(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/**
 * Cuts an MP3 byte stream (an encoder's output or an HTTP body) into chunks of whole frames of about
 * `MP3_CHUNK_MS` each. Rules: a chunk always starts on a frame sync and ends at a frame end; an ID3v2 tag at
 * the start, an ID3v1 tag at the end and any bytes between frames are dropped, because a client decodes each
 * chunk as it arrives and must never be handed a tag or half a frame.
 */
import { concat } from "./pcm-chunks.ts";
import { type FrameHeader, id3Length, parseFrameHeader } from "./mp3-frames.ts";

export const MP3_CHUNK_MS = 200;

export class Mp3Chunker {
  private buffer: Uint8Array = new Uint8Array(0);
  private started = false;
  private frames: Uint8Array[] = [];
  private framesBytes = 0;
  private framesMs = 0;
  /** The first frame's header, once seen: its sample rate is the stream's. */
  first: FrameHeader | null = null;

  constructor(private readonly chunkMs = MP3_CHUNK_MS) {}

  /**
   * Adds bytes; returns the chunks that are now complete.
   * @example chunker.push(body).forEach(send)
   */
  push(bytes: Uint8Array): Uint8Array[] {
    this.buffer = this.buffer.length === 0 ? bytes : concat([this.buffer, bytes]);
    if (!this.started) {
      const skip = id3Length(this.buffer);
      if (skip === null || skip > this.buffer.length) return [];
      this.buffer = this.buffer.subarray(skip);
      this.started = true;
    }
    const out: Uint8Array[] = [];
    let offset = 0;
    while (offset + 4 <= this.buffer.length) {
      const header = parseFrameHeader(this.buffer, offset);
      if (!header) {
        offset++;
        continue;
      }
      if (offset + header.length > this.buffer.length) break;
      // A sync pattern inside junk can look like a header: the first frame must be followed by another one
      // (when the bytes are there), and every later frame must match the first one's format.
      const suspicious = this.first
        ? header.version !== this.first.version || header.layer !== this.first.layer || header.sampleRate !== this.first.sampleRate
        : offset + header.length + 4 <= this.buffer.length && !parseFrameHeader(this.buffer, offset + header.length);
      if (suspicious) {
        offset++;
        continue;
      }
      this.first ??= header;
      this.addFrame(this.buffer.subarray(offset, offset + header.length), header, out);
      offset += header.length;
    }
    this.buffer = this.buffer.slice(offset);
    return out;
  }

  /** Returns the last partial chunk; trailing bytes that are not a whole frame are dropped. */
  end(): Uint8Array[] {
    this.buffer = new Uint8Array(0);
    return this.framesBytes > 0 ? [this.flush()] : [];
  }

  private addFrame(frame: Uint8Array, header: FrameHeader, out: Uint8Array[]): void {
    this.frames.push(frame);
    this.framesBytes += frame.length;
    this.framesMs += (header.samples * 1000) / header.sampleRate;
    if (this.framesMs >= this.chunkMs) out.push(this.flush());
  }

  private flush(): Uint8Array {
    const chunk = concat(this.frames, this.framesBytes).slice();
    this.frames = [];
    this.framesBytes = 0;
    this.framesMs = 0;
    return chunk;
  }
}

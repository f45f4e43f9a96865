/**
 * A streaming WebM demuxer for one thing: the Opus packets of the first audio track, as a browser's
 * MediaRecorder writes them (a Segment and Clusters of unknown size, SimpleBlocks, no cues), fed in chunks
 * cut anywhere.
 *
 * It reads EBML elements flat: the containers it needs (Segment, Tracks, TrackEntry, Audio, Cluster,
 * BlockGroup) are entered without tracking where they end, which is what makes unknown sizes harmless; the
 * leaves it needs (CodecID, CodecPrivate, TrackNumber, SamplingFrequency, Channels, SimpleBlock, Block) are
 * buffered whole; every other element is skipped by its size without being buffered.
 *
 * Written here rather than taken from npm: the EBML packages there (ebml, ts-ebml, ebml-stream) are built on
 * Node streams and Buffer polyfills, and the most used one nests each unknown-size Cluster inside the previous
 * one, growing without bound on a long recording.
 */
import { InvalidAudio } from "./errors.ts";

const ID = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  CodecID: 0x86,
  CodecPrivate: 0x63a2,
  Audio: 0xe1,
  SamplingFrequency: 0xb5,
  Channels: 0x9f,
  Cluster: 0x1f43b675,
  BlockGroup: 0xa0,
  Block: 0xa1,
  SimpleBlock: 0xa3,
} as const;

const CONTAINERS = new Set<number>([ID.Segment, ID.Tracks, ID.TrackEntry, ID.Audio, ID.Cluster, ID.BlockGroup]);
const LEAVES = new Set<number>([ID.TrackNumber, ID.TrackType, ID.CodecID, ID.CodecPrivate, ID.SamplingFrequency, ID.Channels, ID.SimpleBlock, ID.Block]);
/** Largest leaf buffered whole: a block of Opus is a few hundred bytes; this bounds what junk can make us hold. */
const MAX_LEAF_BYTES = 1024 * 1024;

export interface WebmTrack {
  number: number;
  codecId: string;
  codecPrivate: Uint8Array | null;
  sampleRate: number;
  channels: number;
}

export interface WebmOutput {
  /** Set once, the first time the audio track's header has been read. */
  track: WebmTrack | null;
  /** Codec packets of the audio track, in order. */
  frames: Uint8Array[];
}

interface TrackDraft {
  number: number;
  type: number;
  codecId: string;
  codecPrivate: Uint8Array | null;
  sampleRate: number;
  channels: number;
}

export class WebmDemuxer {
  private buffer = new Uint8Array(0);
  private skip = 0;
  private started = false;
  private draft: TrackDraft | null = null;
  private track: WebmTrack | null = null;
  private announced = false;

  /**
   * Reads the next chunk and returns the audio packets it completed.
   * @example const { track, frames } = demuxer.push(chunk)
   */
  push(chunk: Uint8Array): WebmOutput {
    const frames: Uint8Array[] = [];
    const data = this.buffer.length ? concat(this.buffer, chunk) : chunk;
    let at = 0;
    if (this.skip > 0) {
      const n = Math.min(this.skip, data.length);
      this.skip -= n;
      at = n;
    }
    while (at < data.length) {
      const id = readId(data, at);
      if (id === null) break;
      if (id === -1) throw new InvalidAudio("the WebM stream has a malformed element id");
      const size = readSize(data, at + id.length);
      if (size === null) break;
      if (size === -1) throw new InvalidAudio("the WebM stream has a malformed element size");
      if (!this.started && id.value !== ID.EBML) throw new InvalidAudio("the WebM stream does not start with an EBML header");
      this.started = true;
      const headerLength = id.length + size.length;
      if (id.value === ID.TrackEntry) this.draft = { number: 0, type: 0, codecId: "", codecPrivate: null, sampleRate: 0, channels: 1 };
      if (CONTAINERS.has(id.value)) {
        at += headerLength;
        continue;
      }
      if (LEAVES.has(id.value)) {
        if (size.value === Infinity || size.value > MAX_LEAF_BYTES) throw new InvalidAudio("the WebM stream has an oversized block");
        if (at + headerLength + size.value > data.length) break;
        const body = data.subarray(at + headerLength, at + headerLength + size.value);
        this.leaf(id.value, body, frames);
        at += headerLength + size.value;
        continue;
      }
      if (size.value === Infinity) throw new InvalidAudio("the WebM stream has an element of unknown size where none is allowed");
      // Anything else (EBML header, SeekHead, Info, Void, Cues, Tags, Timecode...) is skipped unread.
      at += headerLength;
      const inChunk = Math.min(size.value, data.length - at);
      at += inChunk;
      this.skip = size.value - inChunk;
    }
    this.buffer = data.slice(at);
    if (this.buffer.length > MAX_LEAF_BYTES + 16) throw new InvalidAudio("the WebM stream does not parse");
    let track: WebmTrack | null = null;
    if (this.track && !this.announced) {
      this.announced = true;
      track = this.track;
    }
    return { track, frames };
  }

  private leaf(id: number, body: Uint8Array, frames: Uint8Array[]): void {
    const draft = this.draft;
    switch (id) {
      case ID.TrackNumber:
        if (draft) draft.number = readUint(body);
        return;
      case ID.TrackType:
        if (draft) draft.type = readUint(body);
        return;
      case ID.CodecID:
        if (draft) draft.codecId = String.fromCharCode(...body).replace(/\0+$/, "");
        return;
      case ID.CodecPrivate:
        if (draft) draft.codecPrivate = body.slice();
        return;
      case ID.SamplingFrequency:
        if (draft) draft.sampleRate = readFloat(body);
        return;
      case ID.Channels:
        if (draft) draft.channels = readUint(body);
        return;
      case ID.SimpleBlock:
      case ID.Block: {
        this.adoptTrack();
        if (!this.track) return;
        const block = parseBlock(body);
        if (block.track === this.track.number) frames.push(...block.frames);
        return;
      }
    }
  }

  /** Takes the first audio track seen (type 2, or any track with an A_ codec id) once the blocks begin. */
  private adoptTrack(): void {
    if (this.track || !this.draft) return;
    const d = this.draft;
    if (d.type === 2 || d.codecId.startsWith("A_")) {
      this.track = { number: d.number, codecId: d.codecId, codecPrivate: d.codecPrivate, sampleRate: d.sampleRate || 48000, channels: d.channels || 1 };
    }
  }
}

/** Splits a (Simple)Block body into its track number and frames; laced blocks are split too. */
function parseBlock(body: Uint8Array): { track: number; frames: Uint8Array[] } {
  const track = readSize(body, 0);
  if (track === null || track === -1 || track.value === Infinity) throw new InvalidAudio("the WebM stream has a malformed block");
  const flagsAt = track.length + 2;
  if (flagsAt >= body.length) throw new InvalidAudio("the WebM stream has a truncated block");
  const lacing = (body[flagsAt] >> 1) & 0x03;
  const payload = body.subarray(flagsAt + 1);
  if (lacing === 0) return { track: track.value, frames: [payload] };
  const count = payload[0] + 1;
  let at = 1;
  const sizes: number[] = [];
  if (lacing === 1) {
    // Xiph lacing: each size is a run of 255s plus a final byte.
    for (let i = 0; i < count - 1; i++) {
      let size = 0;
      while (at < payload.length && payload[at] === 255) size += payload[at++];
      size += payload[at++] ?? 0;
      sizes.push(size);
    }
  } else if (lacing === 3) {
    const first = readSize(payload, at);
    if (first === null || first === -1 || first.value === Infinity) throw new InvalidAudio("the WebM stream has a malformed laced block");
    sizes.push(first.value);
    at += first.length;
    for (let i = 1; i < count - 1; i++) {
      const delta = readSize(payload, at);
      if (delta === null || delta === -1 || delta.value === Infinity) throw new InvalidAudio("the WebM stream has a malformed laced block");
      // EBML lacing stores signed differences: subtract the bias of a vint of that length.
      const bias = 2 ** (7 * delta.length - 1) - 1;
      sizes.push(sizes[i - 1] + delta.value - bias);
      at += delta.length;
    }
  } else {
    const each = Math.floor((payload.length - 1) / count);
    for (let i = 0; i < count - 1; i++) sizes.push(each);
  }
  const frames: Uint8Array[] = [];
  for (const size of sizes) {
    if (size < 0 || at + size > payload.length) throw new InvalidAudio("the WebM stream has a malformed laced block");
    frames.push(payload.subarray(at, at + size));
    at += size;
  }
  frames.push(payload.subarray(at));
  return { track: track.value, frames };
}

/** An element id (1-4 bytes, marker bit kept); null when more bytes are needed, -1 when malformed. */
function readId(data: Uint8Array, at: number): { value: number; length: number } | null | -1 {
  if (at >= data.length) return null;
  const first = data[at];
  const length = first >= 0x80 ? 1 : first >= 0x40 ? 2 : first >= 0x20 ? 3 : first >= 0x10 ? 4 : 0;
  if (length === 0) return -1;
  if (at + length > data.length) return null;
  let value = 0;
  for (let i = 0; i < length; i++) value = value * 256 + data[at + i];
  return { value, length };
}

/** A size vint (1-8 bytes, marker removed); all ones means unknown (Infinity). */
function readSize(data: Uint8Array, at: number): { value: number; length: number } | null | -1 {
  if (at >= data.length) return null;
  const first = data[at];
  if (first === 0) return -1;
  const length = Math.clz32(first) - 23;
  if (at + length > data.length) return null;
  let value = first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + data[at + i];
    if (data[at + i] !== 0xff) allOnes = false;
  }
  return { value: allOnes ? Infinity : value, length };
}

function readUint(body: Uint8Array): number {
  let value = 0;
  for (const byte of body) value = value * 256 + byte;
  return value;
}

function readFloat(body: Uint8Array): number {
  const view = new DataView(body.buffer, body.byteOffset, body.length);
  if (body.length === 4) return view.getFloat32(0);
  if (body.length === 8) return view.getFloat64(0);
  return 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

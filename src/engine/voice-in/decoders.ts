/**
 * One incremental decoder per stream format, each turning the chunks of one stream into 16 kHz mono float
 * samples as they arrive. The codecs are the @wasm-audio-decoders family (WebAssembly builds of libvorbis,
 * libopus and mpg123, inlined in their JavaScript, so `bun build --compile` embeds them with no extra files):
 * - Ogg: hoot splits pages itself, so a stream that never sends an end-of-stream page (the Unity SDK's)
 *   decodes page by page, and a page that begins a new logical stream (the next utterance) starts a new
 *   decoder. Vorbis pages go to OggVorbisDecoder; for Opus hoot takes the packets out of the pages itself
 *   (the OpusHead says channels and pre-skip) and OpusDecoder decodes them straight to 16 kHz, which keeps
 *   ogg-opus-decoder's optional machine-learning enhancer (8 MB) out of the executable;
 * - WebM/Opus: ./webm.ts extracts the packets, OpusDecoder decodes them at 16 kHz;
 * - MP3: mpg123 (MPEGDecoder) is fed raw bytes (it resynchronises on frames and skips ID3 tags itself);
 * - WAV and raw PCM: ./pcm.ts.
 */
import { OggVorbisDecoder, OggVorbisDecoderWebWorker } from "@wasm-audio-decoders/ogg-vorbis";
import { MPEGDecoder, MPEGDecoderWebWorker } from "mpg123-decoder";
import { OpusDecoder, OpusDecoderWebWorker } from "opus-decoder";
import { InvalidAudio } from "./errors.ts";
import { PcmDecoder, WavDecoder } from "./pcm.ts";
import { downmix, Resampler, TARGET_RATE } from "./resample.ts";
import { WebmDemuxer } from "./webm.ts";

/**
 * Bun's bundler (1.4) drops these unused classes from the packages (they declare `sideEffects: false`) but
 * keeps the packages' own calls that name them, which then throw "not defined" when a compiled executable
 * starts. Referencing them keeps them in the bundle; they are never used (hoot decodes on the main thread).
 */
export const BUNDLER_KEEP = [OggVorbisDecoderWebWorker, MPEGDecoderWebWorker, OpusDecoderWebWorker];

export type StreamFormat = "pcm" | "wav" | "ogg/vorbis" | "ogg/opus" | "webm/opus" | "mp3";

export interface StreamDecoder {
  /** The format, once known (an Ogg stream learns its codec from its first page). */
  readonly format: StreamFormat | "ogg";
  /** Decodes the next chunk of this stream to 16 kHz mono. Throws InvalidAudio. */
  decode(chunk: Uint8Array): Promise<Float32Array>;
  /** Releases the codec's WebAssembly memory. */
  free(): void;
}

/** Brings decoded audio at any rate to 16 kHz, re-creating the resampler if the rate changes mid-stream. */
class To16k {
  private resampler: Resampler | null = null;

  push(samples: Float32Array, rate: number): Float32Array {
    if (samples.length === 0 || rate === TARGET_RATE) return samples;
    if (!this.resampler || this.resampler.inputRate !== rate) this.resampler = new Resampler(rate);
    return this.resampler.push(samples);
  }
}

export class PcmStream implements StreamDecoder {
  readonly format = "pcm";
  private readonly decoder: PcmDecoder;
  private readonly rate = new To16k();

  constructor(readonly sampleRate: number) {
    this.decoder = new PcmDecoder(sampleRate);
  }

  async decode(chunk: Uint8Array): Promise<Float32Array> {
    const raw = this.decoder.push(chunk);
    return this.rate.push(raw.samples, raw.sampleRate);
  }

  free(): void {}
}

export class WavStream implements StreamDecoder {
  readonly format = "wav";
  private readonly decoder = new WavDecoder();
  private readonly rate = new To16k();

  async decode(chunk: Uint8Array): Promise<Float32Array> {
    const raw = this.decoder.push(chunk);
    return this.rate.push(raw.samples, raw.sampleRate);
  }

  free(): void {}
}

export class Mp3Stream implements StreamDecoder {
  readonly format = "mp3";
  private decoder: MPEGDecoder | null = null;
  private readonly rate = new To16k();
  private decodedAny = false;

  async decode(chunk: Uint8Array): Promise<Float32Array> {
    if (!this.decoder) {
      this.decoder = new MPEGDecoder();
      await this.decoder.ready;
    }
    const result = this.decoder.decode(chunk);
    if (result.samplesDecoded === 0 && result.errors.length > 0 && !this.decodedAny) throw new InvalidAudio("the MP3 frames do not decode");
    if (result.samplesDecoded > 0) this.decodedAny = true;
    return this.rate.push(downmix(result.channelData, result.samplesDecoded), result.sampleRate);
  }

  free(): void {
    release(this.decoder);
    this.decoder = null;
  }
}

type OggCodec = { kind: "vorbis"; decoder: OggVorbisDecoder } | { kind: "opus"; packets: OggPackets; decoder: OpusDecoder<16000> | null };

const OGG_O = new Uint8Array([0x4f]);

/** Largest Ogg page: a 27-byte header, 255 lacing values, 255 segments of 255 bytes. */
const MAX_OGG_PAGE = 27 + 255 + 255 * 255;

export class OggStream implements StreamDecoder {
  private pending = new Uint8Array(0);
  private codec: OggCodec | null = null;
  private serial = -1;
  private primed = false;
  private readonly rate = new To16k();

  get format(): StreamFormat | "ogg" {
    return this.codec ? (this.codec.kind === "vorbis" ? "ogg/vorbis" : "ogg/opus") : "ogg";
  }

  async decode(chunk: Uint8Array): Promise<Float32Array> {
    const pages = this.splitPages(chunk);
    const out: Float32Array[] = [];
    // Consecutive pages of one logical stream are decoded in one call; a BOS page starts a new decoder.
    let run: Uint8Array[] = [];
    const flush = async () => {
      if (run.length === 0 || !this.codec) return;
      const pagesNow = run;
      run = [];
      let result: { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number; errors: unknown[] };
      if (this.codec.kind === "vorbis") {
        // codec-parser hands out a page only once at least one byte of the next one has arrived, which would
        // hold the newest page back forever on a stream that never ends. Every page starts with "O", so hoot
        // feeds the pages plus that one "O", and drops the real "O" from the front of the next feed: the
        // parser sees exactly the original bytes, cut one byte later.
        const bytes = concatAll(this.primed ? [pagesNow[0].subarray(1), ...pagesNow.slice(1), OGG_O] : [...pagesNow, OGG_O]);
        this.primed = true;
        result = await this.codec.decoder.decode(bytes);
      } else {
        result = await decodeOpusPages(this.codec, pagesNow);
      }
      if (result.samplesDecoded === 0 && result.errors.length > 0) throw new InvalidAudio("the Ogg stream does not decode");
      out.push(this.rate.push(downmix(result.channelData, result.samplesDecoded), result.sampleRate));
    };
    for (const page of pages) {
      const view = new DataView(page.buffer, page.byteOffset, page.length);
      const serial = view.getUint32(14, true);
      if (page[5] & 0x02) {
        await flush();
        await this.begin(page, serial);
      } else if (!this.codec) {
        throw new InvalidAudio("an Ogg page arrived without the first page of its stream");
      } else if (serial !== this.serial) {
        continue; // a page of another multiplexed logical stream: not the audio we decode
      }
      run.push(page);
    }
    await flush();
    return concatFloats(out);
  }

  free(): void {
    release(this.codec?.decoder ?? null);
    this.codec = null;
  }

  private async begin(page: Uint8Array, serial: number): Promise<void> {
    const body = page.subarray(27 + page[26]);
    const head = String.fromCharCode(...body.subarray(0, 8));
    this.free();
    this.serial = serial;
    this.primed = false;
    if (head.startsWith("\x01vorbis")) {
      const decoder = new OggVorbisDecoder();
      await decoder.ready;
      this.codec = { kind: "vorbis", decoder };
    } else if (head === "OpusHead") {
      this.codec = { kind: "opus", packets: new OggPackets(), decoder: null };
    } else {
      throw new InvalidAudio("the Ogg stream holds neither Vorbis nor Opus");
    }
  }

  /** Cuts whole pages off the front of what has arrived; a partial page waits for the next chunk. */
  private splitPages(chunk: Uint8Array): Uint8Array[] {
    const data = this.pending.length ? concatAll([this.pending, chunk]) : chunk;
    const pages: Uint8Array[] = [];
    let at = 0;
    while (data.length - at >= 27) {
      if (data[at] !== 0x4f || data[at + 1] !== 0x67 || data[at + 2] !== 0x67 || data[at + 3] !== 0x53 || data[at + 4] !== 0) {
        throw new InvalidAudio("the Ogg stream is broken (a page does not start where the previous one ended)");
      }
      const segments = data[at + 26];
      if (data.length - at < 27 + segments) break;
      let length = 27 + segments;
      for (let s = 0; s < segments; s++) length += data[at + 27 + s];
      if (data.length - at < length) break;
      pages.push(data.subarray(at, at + length));
      at += length;
    }
    this.pending = data.slice(at);
    if (this.pending.length > MAX_OGG_PAGE) throw new InvalidAudio("the Ogg stream is broken");
    return pages;
  }
}

/** Reassembles Ogg packets from pages: a packet ends at the first lacing value below 255, possibly pages later. */
class OggPackets {
  private partial: Uint8Array[] = [];
  count = 0;

  push(page: Uint8Array): Uint8Array[] {
    const segments = page[26];
    const continued = (page[5] & 0x01) !== 0;
    // A continuation with nothing to continue (a page lost before it) cannot be completed: drop its head.
    let dropping = continued && this.partial.length === 0 && this.count > 0;
    const packets: Uint8Array[] = [];
    let at = 27 + segments;
    for (let s = 0; s < segments; s++) {
      const length = page[27 + s];
      if (!dropping) this.partial.push(page.subarray(at, at + length));
      at += length;
      if (length < 255) {
        if (!dropping) packets.push(concatAll(this.partial));
        this.partial = [];
        dropping = false;
      }
    }
    this.count += packets.length;
    return packets;
  }
}

/** Decodes the audio packets of Ogg/Opus pages at 16 kHz; the first packet is the OpusHead, the second the tags. */
async function decodeOpusPages(codec: Extract<OggCodec, { kind: "opus" }>, pages: Uint8Array[]) {
  const audio: Uint8Array[] = [];
  for (const page of pages) {
    const first = codec.packets.count;
    codec.packets.push(page).forEach((packet, i) => {
      const index = first + i;
      if (index === 0) {
        if (packet.length < 19 || String.fromCharCode(...packet.subarray(0, 8)) !== "OpusHead") throw new InvalidAudio("the Ogg Opus stream has no OpusHead");
        const channels = packet[9];
        if (packet[18] !== 0 || channels > 2) throw new InvalidAudio("Ogg Opus with more than two channels is not supported");
        const preSkip = packet[10] | (packet[11] << 8);
        codec.decoder = new OpusDecoder({ sampleRate: TARGET_RATE, channels, preSkip: Math.round((preSkip / 48000) * TARGET_RATE) });
      } else if (index > 1) {
        audio.push(packet);
      }
    });
  }
  if (!codec.decoder || audio.length === 0) return { channelData: [], samplesDecoded: 0, sampleRate: TARGET_RATE, errors: [] };
  await codec.decoder.ready;
  return codec.decoder.decodeFrames(audio);
}

export class WebmStream implements StreamDecoder {
  readonly format = "webm/opus";
  private readonly demuxer = new WebmDemuxer();
  private decoder: OpusDecoder<16000> | null = null;

  async decode(chunk: Uint8Array): Promise<Float32Array> {
    const { track, frames } = this.demuxer.push(chunk);
    if (track) {
      if (track.codecId !== "A_OPUS") throw new InvalidAudio(`WebM audio in ${track.codecId || "an unnamed codec"} is not supported (send Opus)`);
      const head = track.codecPrivate;
      const channels = head && head.length >= 19 ? head[9] : track.channels;
      const preSkip = head && head.length >= 19 ? head[10] | (head[11] << 8) : 0;
      if (channels > 2) throw new InvalidAudio("WebM Opus with more than two channels is not supported");
      this.decoder = new OpusDecoder({ sampleRate: TARGET_RATE, channels, preSkip: Math.round((preSkip / 48000) * TARGET_RATE) });
      await this.decoder.ready;
    }
    if (frames.length === 0) return new Float32Array(0);
    if (!this.decoder) throw new InvalidAudio("the WebM stream has audio blocks before its track header");
    const result = this.decoder.decodeFrames(frames);
    if (result.samplesDecoded === 0 && result.errors.length > 0) throw new InvalidAudio("the WebM Opus packets do not decode");
    return downmix(result.channelData, result.samplesDecoded);
  }

  free(): void {
    release(this.decoder);
    this.decoder = null;
  }
}

/**
 * Frees a codec's WebAssembly memory once it has finished starting (freeing one still instantiating throws
 * inside the library); never throws, since it runs after the request that used the codec has answered.
 */
function release(decoder: { ready: Promise<void>; free(): void } | null): void {
  if (!decoder) return;
  decoder.ready.then(
    () => {
      try {
        decoder.free();
      } catch {
        // already freed, or broken by the input that ended the stream: nothing left to release
      }
    },
    () => {},
  );
}

function concatAll(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function concatFloats(parts: Float32Array[]): Float32Array {
  if (parts.length === 1) return parts[0];
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Float32Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

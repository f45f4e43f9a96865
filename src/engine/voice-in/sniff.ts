/**
 * Recognises an audio chunk by its first bytes. Clients label chunks wrongly (the browser SDK sends WebM/Opus
 * as `audio/mpeg`), so the label is never trusted to pick a container; it only says that signature-less bytes
 * are raw PCM.
 *
 * What a chunk can be:
 * - the start of a stream: `RIFF....WAVE`, EBML (`1A 45 DF A3`), an Ogg page that begins a logical stream
 *   (`OggS` with the BOS flag), or an MP3 stream (an `ID3` tag, or MPEG audio frame headers);
 * - the middle of a stream: an Ogg page without BOS, or bytes with no signature (WebM clusters, the rest of a
 *   WAV's samples, MP3 data cut mid-frame);
 * - raw PCM, when the label says so and no signature matches.
 */

export type Container = "wav" | "ogg" | "webm" | "mp3";

export interface Sniffed {
  container: Container;
  /** True when the chunk begins a new stream (an Ogg BOS page, a RIFF or EBML header, an ID3 tag). */
  startsStream: boolean;
}

const MPEG_BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG_BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MPEG_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/**
 * Length in bytes of the MPEG audio Layer III frame whose header starts at `at`, or 0 if there is none.
 * Layers I and II are not looked for: no client sends them, and every extra pattern is a chance to mistake
 * raw PCM for MP3.
 */
export function mp3FrameLength(bytes: Uint8Array, at = 0): number {
  if (at + 4 > bytes.length) return 0;
  const b1 = bytes[at + 1];
  const b2 = bytes[at + 2];
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return 0;
  const version = (b1 >> 3) & 0x03; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5, 1 reserved
  const layer = (b1 >> 1) & 0x03; // 1 = Layer III
  if (version === 1 || layer !== 1) return 0;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0x03;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return 0;
  const kbps = (version === 3 ? MPEG_BITRATES_V1_L3 : MPEG_BITRATES_V2_L3)[bitrateIndex];
  const rate = MPEG_RATES[version][rateIndex];
  const padding = (b2 >> 1) & 0x01;
  const samplesPerFrame = version === 3 ? 1152 : 576;
  return Math.floor(((samplesPerFrame / 8) * kbps * 1000) / rate) + padding;
}

/**
 * Names the container that `bytes` begins with, or null when no signature matches.
 * `pcmLabelled` makes the MP3 test stricter (two frame headers in a row instead of one), so labelled raw
 * PCM that happens to start with FF Ex is not taken for MP3.
 * @example sniff(Buffer.from("OggS\0\x02...")) // { container: "ogg", startsStream: true }
 */
export function sniff(bytes: Uint8Array, pcmLabelled = false): Sniffed | null {
  if (bytes.length >= 4) {
    const [a, b, c, d] = bytes;
    if (a === 0x52 && b === 0x49 && c === 0x46 && d === 0x46) {
      if (bytes.length < 12 || ascii(bytes, 8, 4) === "WAVE") return { container: "wav", startsStream: true };
    }
    if (a === 0x1a && b === 0x45 && c === 0xdf && d === 0xa3) return { container: "webm", startsStream: true };
    if (a === 0x4f && b === 0x67 && c === 0x67 && d === 0x53) {
      // Byte 5 is the page's header type; 0x02 marks the first page of a logical stream.
      return { container: "ogg", startsStream: bytes.length > 5 && (bytes[5] & 0x02) !== 0 };
    }
  }
  if (bytes.length >= 10 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33 && bytes[3] < 0x05) {
    return { container: "mp3", startsStream: true };
  }
  const frame = mp3FrameLength(bytes);
  if (frame > 0) {
    const next = mp3FrameLength(bytes, frame);
    // A second header exactly one frame later is near-proof; a chunk too short to hold one is accepted only
    // when the client did not say it was raw PCM.
    if (next > 0 || (!pcmLabelled && bytes.length < frame + 4)) return { container: "mp3", startsStream: false };
  }
  return null;
}

/** Signatures a stream may begin with, as far as a chunk cut short could show them. */
const SIGNATURE_PREFIXES: { bytes: number[]; needs: number }[] = [
  { bytes: [0x52, 0x49, 0x46, 0x46], needs: 4 }, // RIFF (WAV)
  { bytes: [0x1a, 0x45, 0xdf, 0xa3], needs: 4 }, // EBML (WebM)
  { bytes: [0x4f, 0x67, 0x67, 0x53], needs: 6 }, // OggS, and the header type byte that says BOS
  { bytes: [0x49, 0x44, 0x33], needs: 10 }, // ID3 (MP3)
];

/**
 * True when `bytes` are too few to tell their format but could be the start of a signature: the first chunk
 * Chromium's MediaRecorder delivers is one byte, 0x1A, the start of WebM's EBML header. Such bytes are held
 * until more arrive instead of being refused.
 * @example mayBeginSignature(Uint8Array.of(0x1a)) // true
 */
export function mayBeginSignature(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  for (const signature of SIGNATURE_PREFIXES) {
    if (bytes.length >= signature.needs) continue;
    const shown = Math.min(bytes.length, signature.bytes.length);
    if (signature.bytes.slice(0, shown).every((byte, i) => bytes[i] === byte)) return true;
  }
  // An MPEG audio frame header is four bytes: FF, then three high bits set.
  return bytes.length < 4 && bytes[0] === 0xff && (bytes.length < 2 || (bytes[1] & 0xe0) === 0xe0);
}

const PCM_LABELS = new Set(["audio/pcm", "audio/l16", "audio/raw", "audio/x-raw", "audio/s16le", "audio/x-pcm", "audio/basic-pcm"]);

/** True when a `mime_type` label names raw 16-bit PCM (parameters such as `;rate=16000` are ignored). */
export function isPcmLabel(mimeType: string | null | undefined): boolean {
  if (!mimeType) return false;
  return PCM_LABELS.has(mimeType.split(";")[0].trim().toLowerCase());
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

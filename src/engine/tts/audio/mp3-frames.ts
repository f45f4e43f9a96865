/**
 * MPEG audio frame headers: enough parsing to cut a byte stream on frame boundaries and to check what an
 * encoder produced. A chunk that splits a frame cannot be decoded on its own, so every chunk we send is cut here.
 */

export interface FrameHeader {
  /** 1 for MPEG-1, 2 for MPEG-2, 2.5 for MPEG-2.5. */
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  bitrateKbps: number;
  sampleRate: number;
  channels: 1 | 2;
  /** Bytes in the whole frame, header included. */
  length: number;
  /** PCM samples per channel that the frame decodes to. */
  samples: number;
}

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V1_L2 = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384];
const BITRATES_V1_L1 = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448];
const BITRATES_V2_L1 = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256];
const BITRATES_V2_L23 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES_V1 = [44100, 48000, 32000];

/**
 * Parses the 4-byte frame header at `offset`, or returns null when there is no valid header there.
 * @example parseFrameHeader(bytes, 0)?.sampleRate // 32000
 */
export function parseFrameHeader(bytes: Uint8Array, offset: number): FrameHeader | null {
  if (offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1];
  const b2 = bytes[offset + 2];
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  // Reserved values and "free format" (index 0) cannot be framed without decoding, so they count as no header.
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const table = version === 1 ? (layer === 1 ? BITRATES_V1_L1 : layer === 2 ? BITRATES_V1_L2 : BITRATES_V1_L3) : layer === 1 ? BITRATES_V2_L1 : BITRATES_V2_L23;
  const bitrateKbps = table[bitrateIndex];
  const sampleRate = SAMPLE_RATES_V1[rateIndex] / (version === 1 ? 1 : version === 2 ? 2 : 4);
  const padding = (b2 >> 1) & 1;
  const channels = bytes[offset + 3] >> 6 === 3 ? 1 : 2;
  let length: number;
  let samples: number;
  if (layer === 1) {
    length = (Math.floor((12 * bitrateKbps * 1000) / sampleRate) + padding) * 4;
    samples = 384;
  } else {
    // MPEG-2/2.5 Layer III frames carry half the samples of MPEG-1 ones, hence half the bytes per kbps.
    const perFrame = layer === 3 && version !== 1 ? 72 : 144;
    length = Math.floor((perFrame * bitrateKbps * 1000) / sampleRate) + padding;
    samples = layer === 3 && version !== 1 ? 576 : 1152;
  }
  return { version, layer, bitrateKbps, sampleRate, channels, length, samples };
}

/**
 * Splits a buffer that holds whole frames into their headers and offsets; throws on anything else.
 * @example splitFrames(chunk).length // frames in the chunk
 */
export function splitFrames(bytes: Uint8Array): { offset: number; header: FrameHeader }[] {
  const frames: { offset: number; header: FrameHeader }[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const header = parseFrameHeader(bytes, offset);
    if (!header || offset + header.length > bytes.length) throw new Error(`no whole frame at byte ${offset}`);
    frames.push({ offset, header });
    offset += header.length;
  }
  return frames;
}

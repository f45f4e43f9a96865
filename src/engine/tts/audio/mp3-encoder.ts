/**
 * MP3 encoding of one sentence with lamejs: MPEG-1 Layer III, mono, CBR, no ID3 tag, no Xing/LAME tag.
 *
 * Why these settings: MPEG-1 needs 32, 44.1 or 48 kHz, and lame picks its output rate from the bitrate, so the
 * input must already be at 32 kHz and the bitrate at least 48 kbps (below that lame falls back to MPEG-2 at
 * 22.05/24 kHz). lamejs' Mp3Encoder turns the bit reservoir off (`disable_reservoir`), so every frame's
 * main_data_begin is 0: each frame holds all of its own bits and a chunk can be decoded without the one before.
 */
import { Mp3Encoder } from "@breezystack/lamejs";
import { Mp3Chunker } from "./mp3-chunker.ts";

export const MP3_SAMPLE_RATE = 32000;
/** 48 kbps at 32 kHz: 216-byte frames of 36 ms, plenty for speech that stops at 8 kHz. */
export const MP3_BITRATE_KBPS = 48;
/** Samples fed to the encoder per step: six MPEG-1 frames, about one chunk. */
const STEP_SAMPLES = 1152 * 6;

/**
 * Encodes 32 kHz mono samples step by step, yielding chunks of whole frames as soon as they are ready.
 * Between steps it calls `cancelled()` and stops early when it answers true.
 * @example for (const chunk of encodeMp3(samples, () => false)) send(chunk)
 */
export function* encodeMp3(samples: Int16Array, cancelled: () => boolean): Generator<Uint8Array> {
  const encoder = new Mp3Encoder(1, MP3_SAMPLE_RATE, MP3_BITRATE_KBPS);
  const chunker = new Mp3Chunker();
  for (let start = 0; start < samples.length; start += STEP_SAMPLES) {
    if (cancelled()) return;
    yield* chunker.push(asBytes(encoder.encodeBuffer(samples.subarray(start, start + STEP_SAMPLES))));
  }
  if (cancelled()) return;
  yield* chunker.push(asBytes(encoder.flush()));
  yield* chunker.end();
}

// lamejs hands back an Int8Array view; the bytes are the same, only the type differs.
function asBytes(data: Int8Array | Uint8Array): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

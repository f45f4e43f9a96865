/**
 * The length of a chunk of audio as a client decodes it, and the marks of a sentence cut to one chunk.
 *
 * MP3: a decoder that has no gapless tag to read (we write none, see ../audio/mp3-encoder.ts) plays every frame
 * in full, starting with the encoder's delay: LAME's 576 samples of look-ahead plus the 529 of the decoder's
 * filter bank, 1,105 samples at 44.1 kHz (about 25 ms, measured with mpg123 in test/engine/tts/marks.test.ts),
 * and ending with the padding of the last frame. So a sentence's MP3 lasts its frames × 1,152 samples, and its
 * marks are 1,105 samples later than on the voice's own clock.
 */
import type { AudioChunk, SpeechMarks } from "../../vocabulary.ts";
import { parseFrameHeader } from "../audio/mp3-frames.ts";
import { delayed, type SentenceMarks, sliceMarks } from "./timeline.ts";

export const MP3_DELAY_SAMPLES = 1105;

/**
 * Seconds of audio a client decodes from `chunk`: MP3 frames × samples per frame, or PCM samples.
 * @example audioSeconds({ data: new Uint8Array(32000), mimeType: "audio/pcm", sampleRate: 16000 }) // 1
 */
export function audioSeconds(chunk: Pick<AudioChunk, "data" | "mimeType" | "sampleRate">): number {
  if (chunk.mimeType !== "audio/mpeg") return chunk.sampleRate > 0 ? Math.floor(chunk.data.length / 2) / chunk.sampleRate : 0;
  let samples = 0;
  let rate = 0;
  for (let offset = 0; offset < chunk.data.length; ) {
    const header = parseFrameHeader(chunk.data, offset);
    if (!header) break;
    samples += header.samples;
    rate = header.sampleRate;
    offset += header.length;
  }
  return rate > 0 ? samples / rate : 0;
}

/**
 * The marks of one chunk of a sentence: an MP3 chunk is the whole sentence (delayed by the encoder); a PCM
 * chunk plays the sentence's audio from `from` seconds on, and `last` says it is the sentence's last.
 * @example chunkMarks(sentence, mp3Chunk, 0, true)
 */
export function chunkMarks(sentence: SentenceMarks, chunk: Pick<AudioChunk, "data" | "mimeType" | "sampleRate">, from: number, last: boolean): SpeechMarks {
  const seconds = audioSeconds(chunk);
  if (chunk.mimeType === "audio/mpeg") return sliceMarks(delayed(sentence, MP3_DELAY_SAMPLES / chunk.sampleRate), 0, seconds, true);
  return sliceMarks(sentence, from, from + seconds, last);
}

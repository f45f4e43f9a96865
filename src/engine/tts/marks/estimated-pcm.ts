/**
 * Estimated marks for PCM that streams in: the sentence's length is known only at its end, so each chunk is
 * held until the next one arrives (one chunk, 200 ms, and only when marks are asked for), and the words are
 * placed at the voice's usual pace meanwhile. The last chunk spreads every word not placed yet over itself.
 */
import type { AudioChunk } from "../../vocabulary.ts";
import { audioSeconds, chunkMarks } from "./chunk-marks.ts";
import { estimateWords } from "./estimate.ts";
import type { SentenceMarks } from "./timeline.ts";
import { type WrittenWord, writtenWords } from "./words.ts";

/** A usual pace of speech at speed 1 (about 150 words a minute), in characters a second: a guess until the audio ends. */
const CHARACTERS_PER_SECOND = 15;

export class EstimatedPcmMarks {
  private readonly words: WrittenWord[];
  private readonly sentence: SentenceMarks;
  private held: AudioChunk | null = null;
  private from = 0;
  private placed = 0;

  /** `text` is the sentence as the turn writes it (words.ts). */
  constructor(text: string, speed: number) {
    this.words = writtenWords(text);
    this.sentence = estimateWords(this.words, { start: 0, end: text.length / (CHARACTERS_PER_SECOND * Math.max(0.25, speed)) });
  }

  /** Takes the next chunk; returns the one before it, now with its marks. */
  push(chunk: AudioChunk): AudioChunk[] {
    const out = this.held ? [this.mark(this.held, false)] : [];
    this.held = chunk;
    return out;
  }

  /** The sentence ended: the held chunk, with the marks left. */
  end(): AudioChunk[] {
    const out = this.held ? [this.mark(this.held, true)] : [];
    this.held = null;
    return out;
  }

  private mark(chunk: AudioChunk, last: boolean): AudioChunk {
    const seconds = audioSeconds(chunk);
    let sentence = this.sentence;
    if (last) {
      // The words the pace has not reached share what is left of the audio.
      sentence = estimateWords(this.words.slice(this.placed), { start: this.from, end: this.from + seconds });
      sentence.visemes = [...this.sentence.visemes.filter((v) => v.end <= this.from), ...sentence.visemes];
    }
    const marks = chunkMarks(sentence, chunk, this.from, last);
    this.placed += marks.subtitles.length;
    this.from += seconds;
    return { ...chunk, marks };
  }
}

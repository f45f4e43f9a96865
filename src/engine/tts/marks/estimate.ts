/**
 * Marks for a voice that gives no timings (an OpenAI-compatible speech server): each spoken word gets a share of
 * the audio by its length, punctuation adds a pause after its word, and a word's visemes are guessed from
 * its spelling and spread evenly over it. Rough, and labelled so (`marks: "estimated"`).
 */
import type { SentenceMarks, Span } from "./timeline.ts";
import { lettersToVisemes } from "./visemes.ts";
import { placeWritten, spokenWords, type WrittenWord, writtenWords } from "./words.ts";

/** Pause after a word, in letters' worth of time. */
function pauseAfter(word: string): number {
  if (/[.!?]["'”’)\]*_]*$/.test(word)) return 5;
  if (/[,;:]["'”’)\]*_]*$/.test(word)) return 3;
  return 1;
}

/**
 * Estimated marks of `text` (the sentence as the turn writes it) spoken over `seconds` of audio, or over the
 * part `within` where the speech is.
 * @example estimatedMarks("Hello *there*!", 1).words.map((w) => w.text) // ["Hello", "*there*!"]
 */
export function estimatedMarks(text: string, seconds: number, within: Span = { start: 0, end: seconds }): SentenceMarks {
  return estimateWords(writtenWords(text), within);
}

/**
 * Estimated marks of written words spoken over `within`: the spoken words are spread by their length, with a
 * pause after punctuation, and each written word spans its spoken words (words.ts, placeWritten).
 * @example estimateWords(writtenWords("a<b"), { start: 0, end: 1 }).words // [{ text: "a<b", start: 0, end: 1 }]
 */
export function estimateWords(words: readonly WrittenWord[], within: Span): SentenceMarks {
  const spoken = spokenWords(words);
  const marks: SentenceMarks = { source: "estimated", words: [], visemes: [] };
  // The pause after a written word's last spoken word follows the written word's punctuation ("*there*!").
  const pauses = words.flatMap((word) => word.spoken.map((_, k) => (k === word.spoken.length - 1 ? pauseAfter(word.text) : 1)));
  const weights = spoken.map((word, i) => ({ speak: word.spoken.length, pause: pauses[i] }));
  // The last word's pause is not spoken: the audio ends.
  const total = weights.reduce((sum, w, i) => sum + w.speak + (i < weights.length - 1 ? w.pause : 0), 0);
  if (within.end <= within.start) return marks;
  const scale = total > 0 ? (within.end - within.start) / total : 0;
  let at = within.start;
  const times = spoken.map((word, i) => {
    const end = at + weights[i].speak * scale;
    const span = { start: at, end };
    addVisemes(marks, lettersToVisemes(word.spoken), at, end);
    at = end + weights[i].pause * scale;
    return span;
  });
  marks.words = placeWritten(words, times, within);
  return marks;
}

/** Spreads `visemes` evenly over [start, end). */
export function addVisemes(marks: SentenceMarks, visemes: SentenceMarks["visemes"][number]["viseme"][], start: number, end: number): void {
  const step = (end - start) / Math.max(1, visemes.length);
  visemes.forEach((viseme, k) => marks.visemes.push({ viseme, start: start + k * step, end: start + (k + 1) * step }));
}

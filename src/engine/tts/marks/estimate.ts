/**
 * Marks for a voice that gives no timings (an OpenAI-compatible speech server): each word gets a share of the
 * audio by its spoken length, punctuation adds a pause after its word, and a word's visemes are guessed from
 * its spelling and spread evenly over it. Rough, and labelled so (`marks: "estimated"`).
 */
import type { SentenceMarks } from "./timeline.ts";
import { lettersToVisemes } from "./visemes.ts";
import { sentenceWords } from "./words.ts";

/** Pause after a word, in letters' worth of time. */
function pauseAfter(word: string): number {
  if (/[.!?]["')\]]*$/.test(word)) return 5;
  if (/[,;:]["')\]]*$/.test(word)) return 3;
  return 1;
}

/**
 * Estimated marks of `text` spoken over `seconds` of audio.
 * @example estimatedMarks("Hello there!", 1).words.map((w) => w.text) // ["Hello", "there!"]
 */
export function estimatedMarks(text: string, seconds: number, within: { start: number; end: number } = { start: 0, end: seconds }): SentenceMarks {
  const words = sentenceWords(text);
  const marks: SentenceMarks = { source: "estimated", words: [], visemes: [] };
  const weights = words.map((word) => ({ speak: word.spoken.length, pause: pauseAfter(word.text) }));
  // The last word's pause is not spoken: the audio ends.
  const total = weights.reduce((sum, w, i) => sum + w.speak + (i < weights.length - 1 ? w.pause : 0), 0);
  if (total === 0 || within.end <= within.start) return marks;
  const scale = (within.end - within.start) / total;
  let at = within.start;
  words.forEach((word, i) => {
    const end = at + weights[i].speak * scale;
    marks.words.push({ text: word.text, start: at, end });
    addVisemes(marks, lettersToVisemes(word.spoken), at, end);
    at = end + weights[i].pause * scale;
  });
  return marks;
}

/** Spreads `visemes` evenly over [start, end). */
export function addVisemes(marks: SentenceMarks, visemes: SentenceMarks["visemes"][number]["viseme"][], start: number, end: number): void {
  const step = (end - start) / Math.max(1, visemes.length);
  visemes.forEach((viseme, k) => marks.visemes.push({ viseme, start: start + k * step, end: start + (k + 1) * step }));
}

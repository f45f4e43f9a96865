/**
 * Marks from flite's own segment timings: `flite -psdur` prints every segment of the utterance's Segment
 * relation with its end time ("pau:0.164 hh:0.255 ax:0.304 ..."), on the clock of the WAV it writes. Visemes
 * come from the phones; words from aligning the spoken words' letters with the phones (align.ts), then the
 * words as written are given the times of the spoken words they are read as (words.ts).
 */
import { alignWords } from "./align.ts";
import { estimateWords } from "./estimate.ts";
import type { SentenceMarks } from "./timeline.ts";
import { visemeOfPhone } from "./visemes.ts";
import { placeWritten, spokenWords, writtenWords } from "./words.ts";

export interface Segment {
  phone: string;
  /** Seconds from the start of the audio. */
  end: number;
}

/** The flite option that prints the segments (`-psdur`). */
export const SEGMENT_OPTION = "-psdur";

/**
 * Parses what `flite -psdur` printed; segments that do not parse are skipped.
 * @example parseSegments("pau:0.164 hh:0.255\n") // [{ phone: "pau", end: 0.164 }, { phone: "hh", end: 0.255 }]
 */
export function parseSegments(printed: string): Segment[] {
  const segments: Segment[] = [];
  for (const item of printed.split(/\s+/)) {
    const colon = item.lastIndexOf(":");
    const end = Number(item.slice(colon + 1));
    if (colon > 0 && Number.isFinite(end)) segments.push({ phone: item.slice(0, colon), end });
  }
  return segments;
}

/**
 * The marks of `text` (the sentence as the turn writes it, markup and all) spoken as `segments` (flite said the
 * speakable form of it), over `seconds` of audio. The words are the written ones (words.ts), timed by their
 * spoken words.
 * @example fliteMarks("I *love* cats.", parseSegments(stdout), pcm.samples.length / pcm.sampleRate)
 */
export function fliteMarks(text: string, segments: readonly Segment[], seconds: number): SentenceMarks {
  const marks: SentenceMarks = { source: "engine", words: [], visemes: [] };
  const starts = segments.map((_, k) => (k === 0 ? 0 : segments[k - 1].end));
  segments.forEach((segment, k) => {
    const end = Math.min(segment.end, seconds);
    if (end > starts[k]) marks.visemes.push({ viseme: visemeOfPhone(segment.phone, segments[k + 1]?.phone), start: starts[k], end });
  });
  const words = writtenWords(text);
  const spans = alignWords(
    spokenWords(words).map((word) => word.spoken),
    segments.map((segment) => segment.phone),
  );
  const spoken = segments.filter((segment) => segment.phone !== "pau");
  // The speech, between the outer pauses.
  const speech = spoken.length > 0 ? { start: starts[segments.indexOf(spoken[0])], end: Math.min(spoken[spoken.length - 1].end, seconds) } : null;
  if (spans) {
    const times = spans.map(([first, last]) => ({ start: starts[first], end: Math.min(segments[last].end, seconds) }));
    marks.words = placeWritten(words, times, speech ?? { start: 0, end: seconds });
  } else if (speech) {
    // Fewer phones than words (flite skipped some): spread the words over the speech.
    marks.words = estimateWords(words, speech).words;
  }
  return marks;
}

/**
 * Marks from flite's own segment timings: `flite -psdur` prints every segment of the utterance's Segment
 * relation with its end time ("pau:0.164 hh:0.255 ax:0.304 ..."), on the clock of the WAV it writes. Visemes
 * come from the phones; words from aligning the text's letters with the phones (align.ts).
 */
import { alignWords } from "./align.ts";
import { estimatedMarks } from "./estimate.ts";
import type { SentenceMarks } from "./timeline.ts";
import { visemeOfPhone } from "./visemes.ts";
import { sentenceWords } from "./words.ts";

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
 * The marks of `text` (as the turn writes it) spoken as `segments`, over `seconds` of audio.
 * @example fliteMarks("Hello there.", parseSegments(stdout), pcm.samples.length / pcm.sampleRate)
 */
export function fliteMarks(text: string, segments: readonly Segment[], seconds: number): SentenceMarks {
  const marks: SentenceMarks = { source: "engine", words: [], visemes: [] };
  const starts = segments.map((_, k) => (k === 0 ? 0 : segments[k - 1].end));
  segments.forEach((segment, k) => {
    const end = Math.min(segment.end, seconds);
    if (end > starts[k]) marks.visemes.push({ viseme: visemeOfPhone(segment.phone, segments[k + 1]?.phone), start: starts[k], end });
  });
  const words = sentenceWords(text);
  const spans = alignWords(
    words.map((word) => word.spoken),
    segments.map((segment) => segment.phone),
  );
  if (spans) {
    words.forEach((word, w) => {
      const [first, last] = spans[w];
      marks.words.push({ text: word.text, start: starts[first], end: Math.min(segments[last].end, seconds) });
    });
  } else {
    // Fewer phones than words (flite skipped some): spread the words over the speech, between the outer pauses.
    const spoken = segments.filter((segment) => segment.phone !== "pau");
    const first = segments.findIndex((segment) => segment.phone !== "pau");
    if (spoken.length > 0) marks.words = estimatedMarks(text, seconds, { start: starts[first], end: spoken[spoken.length - 1].end }).words;
  }
  return marks;
}

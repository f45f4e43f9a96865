/**
 * A sentence's marks on the clock of its own audio, and the marks of one message cut from them.
 *
 * Rules kept here, for every message: visemes tile the message's audio from 0 to its end with no gap and no
 * overlap, no viseme has zero length, two neighbours never repeat an id; each word appears in exactly one
 * message, the one where it starts (it may run past that message's end). Times are rounded to the microsecond.
 */
import type { SpeechMarks, SubtitleMark, Viseme, VisemeMark } from "../../vocabulary.ts";

/** Seconds from the first sample of the sentence's audio. */
export interface Span {
  start: number;
  end: number;
}

export interface SentenceMarks {
  source: SpeechMarks["marks"];
  /** The words in order, as the text writes them. */
  words: (Span & { text: string })[];
  /** Mouth shapes in order; any time they leave uncovered counts as `sil`. */
  visemes: (Span & { viseme: Viseme })[];
}

/**
 * The same marks `seconds` later, as when an encoder puts silence in front of the audio.
 * @example delayed(marks, 0.025).words[0].start // 0.025 more than before
 */
export function delayed(marks: SentenceMarks, seconds: number): SentenceMarks {
  const shift = <T extends Span>(span: T): T => ({ ...span, start: span.start + seconds, end: span.end + seconds });
  return { source: marks.source, words: marks.words.map(shift), visemes: marks.visemes.map(shift) };
}

/**
 * The marks of the message that plays the sentence's audio from `from` to `to` (seconds), timed from `from`.
 * Words that start inside it are its own; the `last` message also takes any word starting later.
 * @example sliceMarks(marks, 0, 1.2, true) // the marks of a sentence sent as one message of 1.2 s
 */
export function sliceMarks(marks: SentenceMarks, from: number, to: number, last: boolean): SpeechMarks {
  const subtitles: SubtitleMark[] = [];
  for (const word of marks.words) {
    if ((word.start < from && from > 0) || (!last && word.start >= to)) continue;
    // The last message may get words placed past its end by an estimate: they start at its end.
    const start = Math.min(Math.max(0, word.start - from), micro(to - from));
    subtitles.push({ text: word.text, start_time_sec: micro(start), duration_sec: Math.max(0.000001, micro(word.end - from - start)) });
  }
  return { marks: marks.source, subtitles, visemes: tile(marks.visemes, from, to) };
}

/** The visemes covering [from, to), timed from `from`, with `sil` wherever none is given. */
function tile(visemes: SentenceMarks["visemes"], from: number, to: number): VisemeMark[] {
  const cuts: { viseme: Viseme; end: number }[] = [];
  const length = micro(to - from);
  const add = (viseme: Viseme, end: number) => {
    const at = Math.min(length, micro(end - from));
    const last = cuts[cuts.length - 1];
    const cursor = last?.end ?? 0;
    if (at <= cursor) return;
    if (last && last.viseme === viseme) last.end = at;
    else cuts.push({ viseme, end: at });
  };
  for (const span of visemes) {
    if (span.end <= from || span.start >= to) continue;
    if (span.start > from) add("sil", span.start);
    add(span.viseme, span.end);
  }
  add("sil", to);
  const out: VisemeMark[] = [];
  let start = 0;
  for (const cut of cuts) {
    out.push({ viseme: cut.viseme, start_time_sec: start, duration_sec: micro(cut.end - start) });
    start = cut.end;
  }
  return out;
}

/** Rounds seconds to the microsecond. */
function micro(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}

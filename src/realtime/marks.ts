/**
 * Speech marks on `response.output_audio.delta` (PROTOCOL.md sections 6 and 7): a session that asks with
 * `session.hoot.subtitles`/`visemes` gets, on each delta, `hoot: {duration_sec, subtitles?, visemes?, marks}`,
 * timed from the start of that delta's audio.
 *
 * Each delta is one interact `audio` message (pcm16, a slice of a sentence) resampled to the wire's rate, so
 * its marks are that message's marks: the pcm16 rule already holds (each word once, in the slice where it
 * starts; visemes tile every slice). Resampling rounds the length to whole samples of the new rate, so the
 * message's timeline is stretched onto the delta's length and cut again by the engine's `sliceMarks`: visemes
 * then tile the delta exactly, to the microsecond.
 */
import { type FrameMarks, type SentenceMarks, sliceMarks } from "../engine/index.ts";

/** What the session asked for. */
export interface MarksWanted {
  subtitles: boolean;
  visemes: boolean;
}

/** The `hoot` key of an audio delta. */
export interface DeltaMarks {
  duration_sec: number;
  subtitles?: FrameMarks["subtitles"];
  visemes?: FrameMarks["visemes"];
  marks: FrameMarks["marks"];
}

/**
 * The marks of a delta lasting `deltaSec` that plays an interact audio message of `messageSec` with `marks`;
 * null when the session asked for none, or the message carries none.
 * @example deltaMarks({ subtitles: true, visemes: false }, { marks: "engine", subtitles: [...] }, 0.5, 0.50002)
 */
export function deltaMarks(wanted: MarksWanted, marks: Partial<FrameMarks>, messageSec: number, deltaSec: number): DeltaMarks | null {
  if ((!wanted.subtitles && !wanted.visemes) || !marks.marks) return null;
  const scale = messageSec > 0 ? deltaSec / messageSec : 1;
  const sentence: SentenceMarks = {
    source: marks.marks,
    words: (marks.subtitles ?? []).map((w) => ({ text: w.text, start: w.start_time_sec * scale, end: (w.start_time_sec + w.duration_sec) * scale })),
    visemes: (marks.visemes ?? []).map((v) => ({ viseme: v.viseme, start: v.start_time_sec * scale, end: (v.start_time_sec + v.duration_sec) * scale })),
  };
  const cut = sliceMarks(sentence, 0, deltaSec, true);
  return {
    duration_sec: Math.round(deltaSec * 1e6) / 1e6,
    ...(wanted.subtitles ? { subtitles: cut.subtitles } : {}),
    ...(wanted.visemes ? { visemes: cut.visemes } : {}),
    marks: cut.marks,
  };
}

/**
 * Plays a reply's `audio` events through Web Audio as they arrive. hoot encodes each sentence as its own MP3
 * stream cut into ~200 ms chunks of whole frames, and every `audio` event names its sentence (`text`), so the
 * chunks of one sentence are gathered and decoded together (decoding chunk by chunk would put a decoder gap
 * at every 200 ms). A sentence is complete when the next sentence starts, when `audio_complete` arrives, or
 * when no chunk has come for a moment; decoded sentences are scheduled back to back, in order.
 *
 * Speech marks (`subtitles`, `visemes`, timed from the start of each event's audio) are kept with the sentence
 * they belong to, put on the sentence's clock (each event's marks shifted by the `duration_sec` of the events
 * before it), and scheduled with it: `now()` says which sentence is being heard and how far into it.
 */
import type { SubtitleMark, VisemeMark } from "../../../client/index.ts";

const QUIET_MS = 250;

export interface AudioStats {
  clips: number;
  seconds: number;
  errors: number;
}

/** The marks of one `audio` event, as the server sent them. */
export interface EventMarks {
  duration: number;
  subtitles?: SubtitleMark[];
  visemes?: VisemeMark[];
}

/** A sentence scheduled to play: when (on the audio context's clock) and its marks on its own clock. */
export interface Clip {
  uid: string;
  text: string;
  start: number;
  end: number;
  words: SubtitleMark[];
  visemes: VisemeMark[];
}

interface Group {
  uid: string;
  text: string;
  chunks: Uint8Array[];
  words: SubtitleMark[];
  visemes: VisemeMark[];
  /** Seconds of the sentence's audio in the events so far. */
  at: number;
}

export class ReplyPlayer {
  private context: AudioContext | null = null;
  private group: Group | null = null;
  private quiet: ReturnType<typeof setTimeout> | null = null;
  /** Decoding is asynchronous; this chain keeps sentences in order. */
  private chain: Promise<void> = Promise.resolve();
  private nextStart = 0;
  private sources = new Set<AudioBufferSourceNode>();
  private stopped = new Set<string>();
  private clips: Clip[] = [];
  readonly stats: AudioStats = { clips: 0, seconds: 0, errors: 0 };

  constructor(private readonly onChange: (stats: AudioStats, firstPlayAt: number | null, uid: string) => void) {}

  /** Creates (or resumes) the audio context; call from a click so every browser allows sound. */
  unlock(): void {
    this.context ??= new AudioContext();
    if (this.context.state === "suspended") void this.context.resume();
  }

  /** Adds one `audio` event of interaction `uid`, with its marks when it has some. */
  push(uid: string, base64: string, text: string, marks?: EventMarks): void {
    if (this.stopped.has(uid)) return;
    if (this.group && (this.group.uid !== uid || this.group.text !== text)) this.flush();
    const group = (this.group ??= { uid, text, chunks: [], words: [], visemes: [], at: 0 });
    group.chunks.push(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    if (marks) {
      const shift = <T extends { start_time_sec: number }>(mark: T): T => ({ ...mark, start_time_sec: mark.start_time_sec + group.at });
      group.words.push(...(marks.subtitles ?? []).map(shift));
      group.visemes.push(...(marks.visemes ?? []).map(shift));
      group.at += marks.duration;
    }
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = setTimeout(() => this.flush(), QUIET_MS);
  }

  /** Decodes and schedules what has been gathered (on `audio_complete`, or when the sentence changes). */
  flush(): void {
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = null;
    const group = this.group;
    this.group = null;
    if (!group || group.chunks.length === 0) return;
    const bytes = new Uint8Array(group.chunks.reduce((n, c) => n + c.length, 0));
    let offset = 0;
    for (const c of group.chunks) {
      bytes.set(c, offset);
      offset += c.length;
    }
    this.chain = this.chain.then(() => this.play(group, bytes));
  }

  /** The sentence being heard now (or the last one heard, with `playing` false), and the seconds into it. */
  now(): { clip: Clip; seconds: number; playing: boolean } | null {
    const time = this.context?.currentTime ?? 0;
    let last: Clip | null = null;
    for (const clip of this.clips) {
      if (clip.start > time) break;
      last = clip;
    }
    return last ? { clip: last, seconds: time - last.start, playing: time < last.end } : null;
  }

  /** Silences interaction `uid` at once: queued and playing audio are dropped. */
  stop(uid: string): void {
    this.stopped.add(uid);
    if (this.group?.uid === uid) {
      this.group = null;
      if (this.quiet) clearTimeout(this.quiet);
    }
    for (const source of this.sources) {
      try {
        source.stop();
      } catch {
        // already ended
      }
    }
    this.sources.clear();
    this.nextStart = 0;
    this.clips = this.clips.filter((clip) => clip.uid !== uid);
  }

  private async play(group: Group, bytes: Uint8Array): Promise<void> {
    const uid = group.uid;
    this.unlock();
    const context = this.context!;
    let buffer: AudioBuffer;
    try {
      buffer = await context.decodeAudioData(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    } catch {
      this.stats.errors++;
      this.onChange(this.stats, null, uid);
      return;
    }
    this.stats.clips++;
    this.stats.seconds += buffer.duration;
    if (this.stopped.has(uid)) {
      this.onChange(this.stats, null, uid);
      return;
    }
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    const start = Math.max(context.currentTime + 0.02, this.nextStart);
    source.start(start);
    this.nextStart = start + buffer.duration;
    // Sentences still to play, the last one heard (its captions stay on screen), and this one.
    const time = context.currentTime;
    const heard = this.clips.filter((clip) => clip.end <= time).slice(-1);
    const clip = { uid, text: group.text, start, end: this.nextStart, words: group.words, visemes: group.visemes };
    this.clips = [...heard, ...this.clips.filter((c) => c.end > time), clip];
    this.sources.add(source);
    source.onended = () => this.sources.delete(source);
    this.onChange(this.stats, performance.now() + (start - context.currentTime) * 1000, uid);
  }
}

/**
 * The speech stage: sentences in, audio frames out, in sentence order. Sentence n+1 is handed to the provider
 * as soon as it arrives while sentence n's chunks are being yielded; providers start work when `synthesize` is
 * called (tts/types.ts), so this is one sentence of look-ahead with no buffer of our own: enough to hide the
 * synthesis time of the next sentence without spending work that an interruption would throw away.
 * Each sentence says when its audio will be needed: the turn's start plus the estimated playing time of the
 * sentences before it. Providers with a queue serve the earliest need first, so under load a new turn's first
 * clause goes ahead of sentences other children will not hear for seconds yet.
 */
import type { AudioFrame, FrameMarks } from "../frames.ts";
import { untilAborted } from "../pipeline/until-aborted.ts";
import { audioSeconds } from "../tts/marks/chunk-marks.ts";
import type { AudioChunk, SpeechTicket, TtsProvider } from "../tts/types.ts";
import type { AudioFormat, MarksWanted, VoiceProfile } from "../types.ts";
import { speakableText } from "./speakable.ts";

export interface SpeechOptions {
  tts: TtsProvider;
  voice: VoiceProfile;
  format: AudioFormat;
  signal: AbortSignal;
  /** The turn's admission ticket (tts.admit()): the provider schedules the turn's sentences by need with it. */
  ticket?: SpeechTicket;
  /** The marks to put on each frame (none when absent or both false). */
  marks?: MarksWanted;
}

interface Job {
  text: string;
  chunks: AsyncIterable<AudioChunk> | null;
}

/**
 * Speaks each sentence with `options.tts`. Throws the provider's error; ends at once on abort.
 * Audio frames are numbered from 0 (`seq`) in the order they are yielded.
 * @example for await (const frame of speechStage(sentences, { tts, voice: {}, format: "mp3", signal })) send(frame)
 */
export async function* speechStage(sentences: AsyncIterable<string>, options: SpeechOptions): AsyncGenerator<AudioFrame> {
  const { tts, signal } = options;
  const source = sentences[Symbol.asyncIterator]();
  const start = performance.now();
  let queuedSeconds = 0;
  let seq = 0;
  const wanted = options.marks && (options.marks.subtitles || options.marks.visemes) ? options.marks : null;
  const pull = async (): Promise<Job | null> => {
    const next = await source.next();
    if (next.done || signal.aborted) return null;
    const speakable = speakableText(next.value);
    if (speakable === null) return { text: next.value, chunks: null };
    // Due a little before the estimate runs out: estimates of speaking time are rough.
    const due = start + queuedSeconds * 1000 * 0.8;
    queuedSeconds += estimateSeconds(speakable, options.voice.speed ?? 1);
    return {
      text: next.value,
      // The marks' words are the sentence as written (the client's `text` events), timed by how `speakable` is said.
      chunks: tts.synthesize({
        text: speakable,
        written: next.value,
        voice: options.voice,
        format: options.format,
        signal,
        due,
        ticket: options.ticket,
        marks: wanted !== null,
      }),
    };
  };
  let upcoming = pull();
  try {
    while (true) {
      const job = await upcoming;
      if (!job) return;
      upcoming = pull();
      // The look-ahead may fail while this sentence is still playing; the failure is rethrown when awaited.
      upcoming.catch(() => {});
      if (!job.chunks) continue;
      for await (const chunk of untilAborted(job.chunks, signal)) {
        const frame: AudioFrame = { type: "audio", chunk, text: job.text, seq: seq++, durationSec: Math.round(audioSeconds(chunk) * 1e6) / 1e6 };
        if (wanted && chunk.marks) frame.marks = frameMarks(chunk.marks, wanted);
        yield frame;
      }
      if (signal.aborted) return;
    }
  } finally {
    // Tell the sentence source we are done, and stop a look-ahead nobody will read; their own failures are not
    // this stage's to report.
    void Promise.resolve(source.return?.()).catch(() => {});
    void upcoming.then((job) => job?.chunks?.[Symbol.asyncIterator]().return?.()).catch(() => {});
  }
}

/** The kinds of marks the turn wants, from what the provider timed. */
function frameMarks(marks: NonNullable<AudioChunk["marks"]>, wanted: MarksWanted): FrameMarks {
  return { marks: marks.marks, ...(wanted.subtitles ? { subtitles: marks.subtitles } : {}), ...(wanted.visemes ? { visemes: marks.visemes } : {}) };
}

/** Rough speaking time of `text`: about 14 characters a second at speed 1 for the built-in voices. */
export function estimateSeconds(text: string, speed: number): number {
  return text.length / (14 * Math.max(0.5, speed));
}

/**
 * The speech stage: sentences in, audio frames out, in sentence order. Sentence n+1 starts synthesizing as soon
 * as it arrives while sentence n's chunks are being yielded (one sentence of look-ahead: enough to hide the
 * synthesis time of the next sentence without spending work that an interruption would throw away).
 * Each sentence says when its audio will be needed: the turn's start plus the estimated playing time of the
 * sentences before it. Providers with a queue serve the earliest need first, so under load a new turn's first
 * clause goes ahead of sentences other children will not hear for seconds yet.
 */
import type { AudioFrame } from "../frames.ts";
import { startSynthesis, speakableText, type SpeechOptions } from "./synthesis.ts";
import type { Channel } from "../pipeline/channel.ts";
import type { AudioChunk } from "../tts/types.ts";

interface Job {
  text: string;
  chunks: Channel<AudioChunk> | null;
}

/**
 * Speaks each sentence with `options.tts`. Throws the provider's error; ends quietly on abort.
 * @example for await (const frame of speechStage(sentences, { tts, voice: {}, format: "mp3", signal })) send(frame)
 */
export async function* speechStage(sentences: AsyncIterable<string>, options: SpeechOptions): AsyncGenerator<AudioFrame> {
  const source = sentences[Symbol.asyncIterator]();
  const start = performance.now();
  let queuedSeconds = 0;
  const pull = async (): Promise<Job | null> => {
    const next = await source.next();
    if (next.done || options.signal.aborted) return null;
    const speakable = speakableText(next.value);
    if (speakable === null) return { text: next.value, chunks: null };
    // Due a little before the estimate runs out: estimates of speaking time are rough.
    const due = start + queuedSeconds * 1000 * 0.8;
    queuedSeconds += estimateSeconds(speakable, options.voice.speed ?? 1);
    return { text: next.value, chunks: startSynthesis(speakable, options, due) };
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
      for await (const chunk of job.chunks) {
        if (options.signal.aborted) return;
        yield { type: "audio", chunk, text: job.text };
      }
    }
  } finally {
    // Tell the sentence source we are done; its own failure is not this stage's to report.
    void Promise.resolve(source.return?.()).catch(() => {});
  }
}

/** Rough speaking time of `text`: about 14 characters a second at speed 1 for the built-in voices. */
export function estimateSeconds(text: string, speed: number): number {
  return text.length / (14 * Math.max(0.5, speed));
}

/**
 * The chunker as a pipeline stage: every token becomes a text frame at once (text is never held back), and
 * the units of speech the sentence chunker completes follow as speech frames. Flushes when its input ends.
 */
import type { ReplyFrame } from "../frames.ts";
import { type ChunkerOptions, SentenceChunker } from "./sentence-chunker.ts";

/**
 * Turns a token stream into text and speech frames.
 * @example for await (const frame of chunkStage(llmTokens)) if (frame.type === "speech") speak(frame.text)
 */
export async function* chunkStage(tokens: AsyncIterable<string>, options?: ChunkerOptions): AsyncGenerator<ReplyFrame> {
  const chunker = new SentenceChunker(options);
  for await (const token of tokens) {
    if (token === "") continue;
    yield { type: "text", text: token };
    for (const text of chunker.push(token)) yield { type: "speech", text };
  }
  for (const text of chunker.flush()) yield { type: "speech", text };
}

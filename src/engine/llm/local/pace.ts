/**
 * Streams the composed reply like a model would: word-ish tokens carrying their leading spaces, paced at a
 * fixed rate. Token i is due at start + i/rate (not "sleep after each token"), so timer lateness never adds up.
 * A rate of 0 means no pacing and no timers (benchmarks); it only yields to the event loop between tokens.
 */
import { sleep } from "../../pipeline/abort.ts";

/**
 * Splits text into tokens that concatenate back to it: "Hi there!" -> ["Hi", " there!"].
 * @example splitTokens("Hello, friend!") // ["Hello,", " friend!"]
 */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/** Yields `tokens` at `tokensPerSecond` (0 = at once), stopping quietly when `signal` aborts. */
export async function* paceTokens(tokens: readonly string[], tokensPerSecond: number, signal: AbortSignal): AsyncGenerator<string> {
  const interval = tokensPerSecond > 0 ? 1000 / tokensPerSecond : 0;
  const start = performance.now();
  for (let i = 0; i < tokens.length; i++) {
    if (interval > 0) {
      const wait = start + i * interval - performance.now();
      if (wait > 0) await sleep(wait, signal);
    } else if (i > 0) {
      // Full speed still yields to the event loop between tokens: otherwise one turn runs start to finish in
      // microtasks and every other socket's messages wait behind it (first-text latency grows with load).
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (signal.aborted) return;
    yield tokens[i] as string;
  }
}

/**
 * The single retry. A failed request is tried once more only when nothing has been streamed yet (so the child
 * never sees a reply start twice) and the failure is retryable; otherwise the error goes to the engine, which
 * turns it into an error frame. Provider clients run with their own retries off, so this is the only one.
 */
import { type LlmError, toLlmError } from "./errors.ts";

export interface RetryOptions {
  signal: AbortSignal;
  /** Total tries, including the first (default 2). */
  attempts?: number;
  /** Called before a retry, for logging. */
  onRetry?: (error: LlmError, attempt: number) => void;
  /** Called once, when the reply's first token arrives (for metrics). */
  onFirstToken?: () => void;
}

/**
 * Streams `open(attempt)`, opening it again after a retryable failure that happened before the first token.
 * @example streamWithRetry((n) => streamWithTimeouts(llm, request, timeouts), { signal })
 */
export async function* streamWithRetry(open: (attempt: number) => AsyncIterable<string>, options: RetryOptions): AsyncGenerator<string> {
  const attempts = options.attempts ?? 2;
  for (let attempt = 1; ; attempt++) {
    let sent = false;
    try {
      for await (const token of open(attempt)) {
        // Only a try that has streamed nothing is retried, so this try's first token is the reply's.
        if (!sent) options.onFirstToken?.();
        sent = true;
        yield token;
      }
      return;
    } catch (error) {
      if (options.signal.aborted) return;
      const failure = toLlmError(error);
      if (sent || !failure.retryable || attempt >= attempts) throw failure;
      options.onRetry?.(failure, attempt);
    }
  }
}

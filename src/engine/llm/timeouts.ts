/**
 * Enforces the first-token and stall timeouts around any provider. The provider gets its own signal, which
 * is aborted when a deadline passes, so its HTTP request really stops; and the wait is abandoned at once even if
 * a provider ignores the signal, so a hung server can never hold a turn.
 *
 * One watchdog timer per stream is re-armed lazily (a deadline is stored per token, the timer only checks it),
 * which keeps the per-token cost to a clock read.
 */
import { childController } from "../pipeline/abort.ts";
import { LlmError } from "./errors.ts";
import type { LlmProvider, LlmRequest } from "./types.ts";

export interface StreamTimeouts {
  /** Longest wait for the first non-empty delta. */
  firstTokenMs: number;
  /** Longest wait between two chunks once text has started. */
  stallMs: number;
}

/**
 * Streams from `provider`, throwing LlmError("timeout") when a deadline passes; ends quietly when `request.signal` aborts.
 * @example for await (const token of streamWithTimeouts(llm, request, { firstTokenMs: 15000, stallMs: 10000 })) ...
 */
export async function* streamWithTimeouts(provider: LlmProvider, request: LlmRequest, timeouts: StreamTimeouts): AsyncGenerator<string> {
  const { controller, dispose } = childController(request.signal);
  const iterator = provider.stream({ ...request, signal: controller.signal })[Symbol.asyncIterator]();
  let deadline = performance.now() + timeouts.firstTokenMs;
  let started = false;
  /** Releases the current wait for the provider with `null` (aborted or timed out). */
  let pending: ((released: null) => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerDue = 0;
  const arm = (ms: number): void => {
    timerDue = performance.now() + ms;
    timer = setTimeout(watch, ms);
  };
  const watch = (): void => {
    // While the consumer holds a token nobody is waiting on the provider: the stall clock restarts at the next read.
    const left = pending ? deadline - performance.now() : timeouts.stallMs;
    if (left > 0) {
      arm(left);
      return;
    }
    const message = started ? "the language model stream stalled" : "the language model did not start answering in time";
    // Aborting stops the provider's request; onAbort then releases the wait, which rethrows this reason.
    controller.abort(new LlmError(message, "timeout", true));
  };
  const onAbort = (): void => pending?.(null);
  arm(timeouts.firstTokenMs);
  controller.signal.addEventListener("abort", onAbort);

  try {
    while (true) {
      if (started) {
        deadline = performance.now() + timeouts.stallMs;
        // The stall deadline can be sooner than the first-token one the timer was armed for.
        if (timerDue > deadline) {
          clearTimeout(timer);
          arm(timeouts.stallMs);
        }
      }
      const result = await new Promise<IteratorResult<string> | null>((resolve, reject) => {
        pending = resolve;
        iterator.next().then(resolve, reject);
      });
      pending = null;
      if (result === null || controller.signal.aborted) {
        const reason: unknown = controller.signal.reason;
        if (reason instanceof LlmError && !request.signal.aborted) throw reason;
        return;
      }
      if (result.done) return;
      if (result.value === "") continue;
      started = true;
      yield result.value;
    }
  } finally {
    clearTimeout(timer);
    controller.signal.removeEventListener("abort", onAbort);
    if (!controller.signal.aborted) controller.abort();
    dispose();
    // Not awaited: a provider stuck on a dead socket must not hold the turn; its signal is already aborted.
    iterator.return?.().catch(() => {});
  }
}

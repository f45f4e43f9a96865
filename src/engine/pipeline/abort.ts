/**
 * Small helpers for cancellation. Every stage receives an AbortSignal; these keep the wiring of
 * "the turn's signal aborts mine" and "sleep unless aborted" in one place so no stage leaks a listener or a timer.
 */

/** A controller that aborts when `parent` aborts; `dispose` removes the listener once the child is done. */
export function childController(parent: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, dispose: () => {} };
  }
  const onAbort = (): void => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener("abort", onAbort) };
}

/**
 * Waits `ms` milliseconds, or less if `signal` aborts first; never rejects.
 * @example await sleep(100, signal); if (signal.aborted) return;
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

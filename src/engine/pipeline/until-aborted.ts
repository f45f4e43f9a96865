/**
 * Iterates a source that may not honour its signal promptly (a provider stuck on a dead socket, a worker that
 * takes its time to notice a cancel), ending the moment `signal` aborts. The source is told to stop through
 * `return()`, not awaited, so a hung source can never hold the turn.
 */

/**
 * Yields `source`'s items until it ends or `signal` aborts, whichever comes first; never throws after an abort.
 * @example for await (const chunk of untilAborted(tts.synthesize(request), signal)) send(chunk)
 */
export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  if (signal.aborted) return;
  const iterator = source[Symbol.asyncIterator]();
  let release = (): void => {};
  const aborted = new Promise<null>((resolve) => (release = () => resolve(null)));
  signal.addEventListener("abort", release, { once: true });
  try {
    while (true) {
      // A rejection of next() that loses the race is handled by the race itself, so it cannot go unhandled.
      const result = await Promise.race([iterator.next(), aborted]);
      if (result === null || signal.aborted || result.done) return;
      yield result.value;
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    signal.removeEventListener("abort", release);
    void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}

/**
 * A single-consumer async queue: producers push, end or fail; the consumer iterates with `for await`.
 * It is what lets work start before anyone iterates: `synthesize()` hands one back at once and fills it as
 * audio arrives, so the caller can submit sentence n+1 while still sending sentence n.
 * If the consumer stops early (break, return, throw), `onStop` runs so the producer can drop the work.
 */

type Waiter<T> = (result: IteratorResult<T>) => void;

export class ChunkQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: { resolve: Waiter<T>; reject: (error: unknown) => void } | null = null;
  private finished = false;
  private error: unknown = null;

  constructor(private readonly onStop: () => void = () => {}) {}

  /** True once end() or fail() was called. */
  get done(): boolean {
    return this.finished;
  }

  /** Hands an item to the consumer (ignored after end or fail). */
  push(item: T): void {
    if (this.finished) return;
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve({ value: item, done: false });
    } else {
      this.items.push(item);
    }
  }

  /** Ends the stream after the items already pushed. */
  end(): void {
    this.finish(null);
  }

  /** Ends the stream now, dropping items not yet read: aborted audio must not be played late. */
  abort(): void {
    this.items.length = 0;
    this.finish(null);
  }

  /** Ends the stream with an error, thrown to the consumer after the items already pushed. */
  fail(error: unknown): void {
    this.finish(error);
  }

  private finish(error: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.error = error;
    if (this.waiter && this.items.length === 0) {
      const waiter = this.waiter;
      this.waiter = null;
      if (error) waiter.reject(error);
      else waiter.resolve({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.finished) {
          const error = this.error;
          // The error is thrown once; later calls just see the end.
          this.error = null;
          return error ? Promise.reject(error) : Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => {
          this.waiter = { resolve, reject };
        });
      },
      return: () => {
        this.items.length = 0;
        if (!this.finished) {
          this.finished = true;
          this.onStop();
        }
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

/**
 * Runs `source` now, buffering what it yields into a ChunkQueue, so work starts before anyone iterates.
 * `source` gets a signal that aborts when `signal` does or when the consumer stops iterating; its errors
 * reach the consumer, except after an abort (a stopped stream ends quietly).
 * @example return startEagerly(request.signal, (signal) => this.stream({ ...request, signal }))
 */
export function startEagerly<T>(signal: AbortSignal, source: (signal: AbortSignal) => AsyncIterable<T>): AsyncIterable<T> {
  const controller = new AbortController();
  const queue = new ChunkQueue<T>(() => controller.abort());
  const onAbort = () => {
    controller.abort();
    queue.abort();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  (async () => {
    try {
      for await (const item of source(controller.signal)) {
        if (controller.signal.aborted) break;
        queue.push(item);
      }
      queue.end();
    } catch (error) {
      if (controller.signal.aborted) queue.end();
      else queue.fail(error);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  })();
  return queue;
}

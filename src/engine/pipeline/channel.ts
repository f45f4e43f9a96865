/**
 * A single-consumer async queue joining two stages that run at their own pace (for example the text pump
 * and the speech pump writing into one output). Producers never wait; the consumer waits for the next item.
 *
 * Rules it keeps:
 * - items come out in the order they were pushed;
 * - `fail(error)` is delivered after the items already queued, so text that was produced is not lost;
 * - when the optional `signal` aborts, queued items are dropped and a waiting consumer is released at once
 *   with `done`: an interruption must not wait for anyone.
 */
export class Channel<T> implements AsyncIterableIterator<T> {
  private items: T[] = [];
  private head = 0;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  private readonly onAbort = (): void => this.drop();

  constructor(private readonly signal?: AbortSignal) {
    if (signal?.aborted) this.drop();
    else signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** Queues an item; returns false (and drops it) once the channel has ended. */
  push(item: T): boolean {
    if (this.ended) return false;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter.resolve({ value: item, done: false });
    } else {
      this.items.push(item);
    }
    return true;
  }

  /** Ends the channel after the queued items. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.settleWaiter();
  }

  /** Ends the channel with an error, thrown to the consumer after the queued items. */
  fail(error: unknown): void {
    if (this.ended) return;
    this.failure = { error };
    this.close();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head++] as T;
      if (this.head === this.items.length) {
        this.items = [];
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return this.finish();
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /** The consumer stopped reading: nothing more will be delivered. */
  return(): Promise<IteratorResult<T>> {
    this.drop();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private drop(): void {
    this.items = [];
    this.head = 0;
    this.failure = null;
    this.ended = true;
    this.signal?.removeEventListener("abort", this.onAbort);
    this.settleWaiter();
  }

  private settleWaiter(): void {
    const waiter = this.waiter;
    if (!waiter || this.head < this.items.length) return;
    this.waiter = null;
    this.finish().then(waiter.resolve, waiter.reject);
  }

  private finish(): Promise<IteratorResult<T>> {
    if (this.failure) {
      const { error } = this.failure;
      this.failure = null;
      return Promise.reject(error);
    }
    return Promise.resolve({ value: undefined, done: true });
  }
}

/**
 * A fetch that cannot hang: it is aborted when nothing arrives for `timeoutMs` (waiting for the headers, then
 * between body chunks) and when the caller's signal aborts. The timer only runs while we wait for the
 * network, never while the consumer is busy with a chunk, so a slow socket is not mistaken for a stall.
 */
import { TtsError } from "./types.ts";

export class StallGuard {
  private readonly controller = new AbortController();
  private timer: Timer | null = null;
  private readonly onAbort = () => this.controller.abort();
  /** True once the timer fired (as opposed to the caller aborting). */
  timedOut = false;

  constructor(
    private readonly caller: AbortSignal,
    private readonly timeoutMs: number,
  ) {
    caller.addEventListener("abort", this.onAbort, { once: true });
    this.arm();
  }

  /** The signal to pass to fetch. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the timer and forgets the caller's signal. */
  stop(): void {
    this.disarm();
    this.caller.removeEventListener("abort", this.onAbort);
  }

  /**
   * Yields the body's chunks; ends quietly if the caller aborts, throws TtsError on a stall or a broken stream.
   * @example for await (const bytes of guard.read(response.body)) use(bytes)
   */
  async *read(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
    const reader = body.getReader();
    try {
      while (true) {
        this.arm();
        const { value, done } = await reader.read();
        this.disarm();
        if (done) return;
        if (value.length > 0) yield value;
      }
    } catch (error) {
      if (this.caller.aborted) return;
      if (this.timedOut) throw new TtsError("speech service stalled", true);
      throw new TtsError(`speech stream broke (${error instanceof Error ? error.name : "unknown"})`, true);
    } finally {
      this.stop();
      reader.cancel().catch(() => {});
    }
  }

  private arm(): void {
    this.disarm();
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * The socket's audio budget: `add_audio` does not count against the per-minute message limit (a child
 * talking for 13 s is ~160 messages); instead each socket may send `rate` seconds of audio per second of
 * wall clock, with a burst of `burstSeconds` (a client that buffered speech while offline may send it at
 * once). A token bucket: it starts full, refills continuously, and a chunk costs its audio duration, but at
 * least MIN_COST_SECONDS so a flood of empty or tiny chunks is bounded too.
 *
 * A client streaming in real time spends 1 s per second; with the default rate of 2 it never runs dry.
 */

/** The least a chunk costs (10 ms), so a million empty chunks are not free. */
export const MIN_COST_SECONDS = 0.01;

export interface BudgetDecision {
  ok: boolean;
  /** When refused: how long until the chunk would fit, ms. */
  retryAfterMs: number;
}

export class AudioBudget {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly rate: number,
    private readonly burstSeconds: number,
    now = performance.now(),
  ) {
    if (!(rate > 0) || !(burstSeconds > 0)) throw new Error("the audio budget needs a positive rate and burst");
    this.tokens = burstSeconds;
    this.updatedAt = now;
  }

  /**
   * Charges `seconds` of audio at time `now` (ms, performance.now() clock); refuses without charging when the
   * budget cannot cover it.
   * @example if (!budget.spend(chunkSeconds).ok) closeSocket(4429)
   */
  spend(seconds: number, now = performance.now()): BudgetDecision {
    this.refill(now);
    const cost = Math.max(MIN_COST_SECONDS, seconds);
    if (cost > this.tokens) return { ok: false, retryAfterMs: Math.ceil(((cost - this.tokens) / this.rate) * 1000) };
    this.tokens -= cost;
    return { ok: true, retryAfterMs: 0 };
  }

  /** Audio seconds that may be sent right now. */
  available(now = performance.now()): number {
    this.refill(now);
    return this.tokens;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(this.burstSeconds, this.tokens + elapsed * this.rate);
    this.updatedAt = now;
  }
}

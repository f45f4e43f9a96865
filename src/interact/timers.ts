/**
 * A session's three clocks: the deadline to authenticate after connecting, the token's expiry (only with
 * `closeAtTokenExpiry`; re-authenticating pushes it back), and the longest lifetime after the first
 * authentication. Each fires at most once, and `clear()` (the socket's close) stops all of them. When one
 * fires, the session is shut down (its running stream closes first) with the code and sentence below.
 *
 * Memory: ten thousand idle sockets must not hold ten thousand runtime timers and their closures. Every
 * session's clocks are entries in one queue per process (a binary heap ordered by deadline, then by arming
 * order), behind one runtime timer armed for the earliest entry; a cleared clock leaves the heap at once, so a
 * socket that comes and goes leaves nothing behind. An entry is one small object pointing at its session.
 */
import type { FatalCode } from "./protocol.ts";

/** What a clock does when it fires: shuts the session down (session.ts's `shutdown`). */
export interface TimedSession {
  shutdown(code: FatalCode, error: string): unknown;
}

const REASONS = {
  auth: ["auth_timeout", "authenticate within the time limit after connecting"],
  expiry: ["token_expired", "the access token expired; re-authenticate on the socket before it does"],
  lifetime: ["session_expired", "the session reached its longest allowed lifetime; log in and connect again"],
} as const satisfies Record<string, readonly [FatalCode, string]>;

type Clock = keyof typeof REASONS;

class Entry {
  /** Position in the heap; -1 once it has left it. */
  index = -1;
  constructor(
    readonly at: number,
    readonly seq: number,
    readonly session: TimedSession,
    readonly clock: Clock,
  ) {}
}

/** setTimeout's longest delay (~24.8 days); a later deadline is re-armed on waking. */
const MAX_DELAY = 2 ** 31 - 1;

/** Every session's clocks in one process: one runtime timer for the earliest. */
class DeadlineQueue {
  private readonly heap: Entry[] = [];
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private armedAt = Number.POSITIVE_INFINITY;

  add(ms: number, session: TimedSession, clock: Clock): Entry {
    const entry = new Entry(performance.now() + Math.max(0, ms), this.seq++, session, clock);
    entry.index = this.heap.length;
    this.heap.push(entry);
    this.up(entry.index);
    this.arm();
    return entry;
  }

  remove(entry: Entry): void {
    const i = entry.index;
    if (i < 0) return;
    entry.index = -1;
    const last = this.heap.pop() as Entry;
    if (last !== entry) {
      this.heap[i] = last;
      last.index = i;
      this.down(i);
      this.up(last.index);
    }
    if (this.heap.length === 0) this.disarm();
  }

  private fire(): void {
    this.timer = null;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const due: Entry[] = [];
    while (this.heap.length > 0 && (this.heap[0] as Entry).at <= now) {
      const first = this.heap[0] as Entry;
      this.remove(first);
      due.push(first);
    }
    this.arm();
    for (const entry of due) {
      const [code, error] = REASONS[entry.clock];
      entry.session.shutdown(code, error);
    }
  }

  private arm(): void {
    const first = this.heap[0];
    if (!first || first.at >= this.armedAt) return;
    this.disarm();
    this.armedAt = first.at;
    this.timer = setTimeout(() => this.fire(), Math.min(MAX_DELAY, Math.max(0, Math.ceil(first.at - performance.now()))));
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedAt = Number.POSITIVE_INFINITY;
  }

  private before(a: Entry, b: Entry): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i] as Entry;
    const b = this.heap[j] as Entry;
    this.heap[i] = b;
    this.heap[j] = a;
    a.index = j;
    b.index = i;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(this.heap[i] as Entry, this.heap[parent] as Entry)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && this.before(this.heap[left] as Entry, this.heap[smallest] as Entry)) smallest = left;
      if (right < n && this.before(this.heap[right] as Entry, this.heap[smallest] as Entry)) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}

const QUEUE = new DeadlineQueue();

/** The clocks of one session. */
export class SessionTimers {
  private auth: Entry | null = null;
  private expiry: Entry | null = null;
  private lifetime: Entry | null = null;

  constructor(private readonly session: TimedSession) {}

  /** Starts the deadline to authenticate. */
  startAuthDeadline(ms: number): void {
    this.auth = QUEUE.add(ms, this.session, "auth");
  }

  /** The socket authenticated: the deadline to do so no longer applies. */
  stopAuthDeadline(): void {
    if (this.auth) QUEUE.remove(this.auth);
    this.auth = null;
  }

  /** (Re)arms the token's expiry: `expiresAt` in seconds since the epoch, plus the clock tolerance. */
  armExpiry(expiresAt: number, toleranceSeconds: number): void {
    if (this.expiry) QUEUE.remove(this.expiry);
    this.expiry = QUEUE.add((expiresAt + toleranceSeconds) * 1000 - Date.now(), this.session, "expiry");
  }

  /** Starts the longest lifetime, once: a later call (a re-authentication) leaves the first one running. */
  startLifetime(ms: number): void {
    this.lifetime ??= QUEUE.add(ms, this.session, "lifetime");
  }

  /** Stops every clock. */
  clear(): void {
    for (const entry of [this.auth, this.expiry, this.lifetime]) if (entry) QUEUE.remove(entry);
  }
}

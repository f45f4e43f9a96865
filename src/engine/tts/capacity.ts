/**
 * Admission control for the local engine: how many turns may speak at once.
 *
 * Data model: the number of turns holding a ticket (`active`), and the engine's measured real-time factor
 * (seconds of work per second of audio, a decaying average over recent sentences, wall time in the workers, so
 * a machine busy with other work shows up as a slower engine).
 * Rules:
 * - a talking turn needs one second of audio per second, so `workers` workers keep up with about
 *   `workers / rtf` turns; a turn is admitted while fewer than `headroom` of that many hold a ticket
 *   (or fewer than `maxTurns` when an operator fixed the number);
 * - and only while the speech queue is not already late: when a queued sentence is more than `maxLagMs` past
 *   its need (a player buffers about 300 ms; a turn's first sentence gets 700 ms of grace first), new turns are
 *   refused until the engine catches up, which protects the turns already speaking;
 * - a refused turn is told before it starts (`admit()` answers null), never halfway through.
 */
import type { SpeechTicket } from "./types.ts";

export interface CapacityOptions {
  workers: number;
  /** Fixed limit of turns speaking at once; 0 = derived from the measured speed. */
  maxTurns: number;
  /** Refuse new turns while the speech queue is this late. */
  maxLagMs: number;
  /**
   * Share of the measured capacity handed out (default 0.8). The rest absorbs bursts: sentences are not
   * preemptible, and a turn's second sentence has only the first clause's playing time (about a second) to be ready.
   */
  headroom?: number;
  /** Real-time factor assumed before anything was measured. */
  initialRtf?: number;
}

/** How much of the average one more sentence moves (a window of roughly the last 30 sentences). */
const DECAY = 0.97;
/** Seconds of audio the initial guess counts as, so the first real measurements do not swing it wildly. */
const PRIOR_SECONDS = 10;

export class SpeechCapacity {
  private active = 0;
  private workSeconds: number;
  private audioSeconds: number;

  constructor(
    private readonly options: CapacityOptions,
    /** How late the most urgent queued sentence is now, in ms (0 when nothing is late). */
    private readonly lagMs: () => number,
  ) {
    this.workSeconds = (options.initialRtf ?? 0.03) * PRIOR_SECONDS;
    this.audioSeconds = PRIOR_SECONDS;
  }

  /** The measured real-time factor. */
  get rtf(): number {
    return this.workSeconds / this.audioSeconds;
  }

  /** Turns that may speak at once now. */
  get limit(): number {
    if (this.options.maxTurns > 0) return this.options.maxTurns;
    return Math.max(1, Math.floor((this.options.workers * (this.options.headroom ?? 0.8)) / this.rtf));
  }

  /** Turns holding a ticket. */
  get inUse(): number {
    return this.active;
  }

  /**
   * A ticket for one more speaking turn, or null when speech capacity is short.
   * @example const ticket = capacity.reserve(); try { ... } finally { ticket?.release() }
   */
  reserve(): SpeechTicket | null {
    if (this.active >= this.limit || this.lagMs() > this.options.maxLagMs) return null;
    this.active++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.active--;
      },
    };
  }

  /** Records one synthesized sentence: `workMs` of work for `audioMs` of audio. */
  measured(workMs: number, audioMs: number): void {
    if (!(audioMs > 0) || !(workMs >= 0)) return;
    this.workSeconds = this.workSeconds * DECAY + workMs / 1000;
    this.audioSeconds = this.audioSeconds * DECAY + audioMs / 1000;
  }
}

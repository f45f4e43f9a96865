/**
 * When a turn's sentences are needed. A listener hears a turn's first sentence as soon as it arrives and each
 * later one right after the audio before it has played, so:
 *   need(sentence k) = playback start + audio seconds of sentences 0..k-1
 * where playback starts when the turn's first audio is delivered (until then: when its first sentence was
 * asked for, i.e. "now"), and a sentence's seconds are estimated from its text until it has been synthesized.
 * The pool serves the queued sentence with the earliest need first, so a new turn's first clause goes ahead of
 * sentences other children will not hear for seconds yet, and nobody's deadline counts from their turn's start.
 */

/** About how many characters the built-in voices speak per second at speed 1 (measured on flite's voices). */
const CHARS_PER_SECOND = 14;

/**
 * Rough speaking time of `text` at `speed`, before synthesis.
 * @example estimateSeconds("Hello there, my friend!", 1) // about 1.6
 */
export function estimateSeconds(text: string, speed = 1): number {
  return text.length / (CHARS_PER_SECOND * Math.max(0.5, speed));
}

/** The playback timeline of one turn. Times are `performance.now()` milliseconds. */
export class TurnTimeline {
  private start: number | null = null;
  private firstAsked: number | null = null;
  private readonly slots: { estimate: number; actual: number | null }[] = [];

  /**
   * Places the turn's next sentence on the timeline; returns its slot.
   * @example const slot = timeline.place(estimateSeconds(text), performance.now())
   */
  place(estimateSeconds: number, now: number): number {
    this.firstAsked ??= now;
    this.slots.push({ estimate: estimateSeconds, actual: null });
    return this.slots.length - 1;
  }

  /** When the listener needs slot `slot`'s audio. */
  needOf(slot: number): number {
    let at = this.start ?? this.firstAsked ?? 0;
    for (let i = 0; i < slot && i < this.slots.length; i++) at += (this.slots[i].actual ?? this.slots[i].estimate) * 1000;
    return at;
  }

  /** Slot `slot` delivered audio at `now`: the first delivery of the turn starts playback. */
  delivered(slot: number, now: number): void {
    if (this.start === null && slot === 0) this.start = now;
  }

  /** Slot `slot` is synthesized: `audioSeconds` replaces its estimate. */
  finished(slot: number, audioSeconds: number): void {
    const entry = this.slots[slot];
    if (entry) entry.actual = audioSeconds;
  }
}

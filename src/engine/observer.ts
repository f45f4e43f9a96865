/**
 * Hooks through which whoever runs the engine sees each turn's timings and ending (for metrics), without the
 * engine knowing what consumes them. Every hook is optional, called synchronously at most once per turn, and
 * must be cheap; one that throws is ignored, so a metrics bug can never fail a child's turn.
 *
 * Times are milliseconds on the performance.now() clock, counted from `TurnInput.receivedAt` (when the caller
 * received the request) or, without it, from when the turn started; the model's first token is counted from
 * the model request, so it is the model's own latency.
 */
import type { TurnErrorCode } from "./frames.ts";

/** How a turn ended: its `complete`, an abort (interrupt, new interact, close), or an error frame's code. */
export type TurnOutcome = "complete" | "interrupted" | TurnErrorCode;

export interface TurnObserver {
  /** The model's first token came `ms` after the model request (not called for a scripted reply). */
  firstToken?(ms: number): void;
  /** The reply's first text left the engine. */
  firstText?(ms: number): void;
  /** The reply's first audio left the engine. */
  firstAudio?(ms: number): void;
  /** The turn ended; `ms` is its whole duration. */
  finished?(outcome: TurnOutcome, ms: number): void;
}

/**
 * Runs one observer call and swallows whatever it throws.
 * @example notify(() => observer?.firstText?.(12.5))
 */
export function notify(call: () => void): void {
  try {
    call();
  } catch {
    // A metrics hook must never break a turn.
  }
}

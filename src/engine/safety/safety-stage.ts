/**
 * The safety seam. Every reply frame passes through a SafetyStage between the chunker and the output, so a
 * stage sees each sentence (speech frame) before it is spoken and each fragment before it is shown. A real
 * policy can hold text frames until their sentence is checked, replace or drop text, and add notice frames,
 * which reach the client as `safety_policy` events (category and action, never the offending text).
 *
 * The turn's policy name (`SafetyTurn.policy`, one of policies.ts) says which rules apply. For now the engine
 * uses `passThroughSafety`, which changes nothing and costs nothing.
 */
import type { ReplyFrame } from "../frames.ts";
import type { Context } from "../types.ts";

export interface SafetyTurn {
  signal: AbortSignal;
  context: Context;
  languageCode: string;
  /** The configured policy's name. */
  policy: string;
}

export interface SafetyStage {
  readonly name: string;
  /** Transforms the turn's reply frames; must stop when `turn.signal` aborts and flush held text when `frames` ends. */
  run(frames: AsyncIterable<ReplyFrame>, turn: SafetyTurn): AsyncIterable<ReplyFrame>;
}

/** The stage used until a policy exists: frames go through untouched (no extra async hop). */
export const passThroughSafety: SafetyStage = {
  name: "pass-through",
  run: (frames) => frames,
};

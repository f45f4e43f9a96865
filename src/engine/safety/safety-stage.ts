/**
 * The safety seam. Every reply frame passes through a SafetyStage between the chunker and the output, so a
 * stage sees each sentence (speech frame) before it is spoken and each fragment before it is shown. A real
 * policy holds text frames until their sentence is checked, replaces or drops text, and adds notice frames,
 * which reach the client as `safety_policy` events (category and action, never the offending text).
 *
 * The caller (the interact session) owns the policy and the session's stance: it hands each turn a
 * `TurnSafety` (TurnInput.safety) with the output check already bound to them, and the engine's default
 * stage (turn-stage.ts) runs the output gate with it. A turn without one is not checked (engine tests,
 * benchmarks); the session always gives one.
 */
import type { ReplyFrame } from "../frames.ts";
import type { Context } from "../vocabulary.ts";
import type { Incident, OutputVerdict } from "./policy/compiled.ts";

/** What the caller's policy does to this turn's reply. */
export interface TurnSafety {
  /** Checks one unit of the reply (the first clause or a sentence) before it is shown or spoken; null: no output checks. */
  checkOutput: ((unit: string, signal: AbortSignal) => OutputVerdict | Promise<OutputVerdict>) | null;
  /** Records an escalation an output check asked for (never the text). Must not throw. */
  onIncident(incident: Incident): void;
}

export interface SafetyTurn {
  signal: AbortSignal;
  context: Context;
  languageCode: string;
  /** The configured policy's name. */
  policy: string;
  /** The policy's hooks for this turn; absent when the reply is not checked (no policy, or the policy's own line). */
  safety?: TurnSafety;
}

export interface SafetyStage {
  readonly name: string;
  /** Transforms the turn's reply frames; must stop when `turn.signal` aborts and flush held text when `frames` ends. */
  run(frames: AsyncIterable<ReplyFrame>, turn: SafetyTurn): AsyncIterable<ReplyFrame>;
}

/** A stage that changes nothing and costs nothing (tests of the seam itself). */
export const passThroughSafety: SafetyStage = {
  name: "pass-through",
  run: (frames) => frames,
};

/**
 * The engine's default safety stage: the output gate (gate/stage.ts) driven by the turn's own TurnSafety.
 * Text is held until its unit of speech has passed the check; a blocked sentence is dropped, a replaced one
 * ends the reply with the policy's line; every decision becomes a notice frame. Without a TurnSafety, or
 * with a policy that does not check output, frames pass through untouched.
 */
import { gatedSafetyStage } from "./gate/stage.ts";
import type { SafetyStage } from "./safety-stage.ts";

/** The stage createEngine uses unless told otherwise. */
export const turnSafetyStage: SafetyStage = gatedSafetyStage(
  (turn) => {
    const check = turn.safety?.checkOutput;
    return check ? (unit) => check(unit, turn.signal) : null;
  },
  (incident, turn) => turn.safety?.onIncident(incident),
);

/**
 * The token stream of a reply the caller already wrote (a policy's redirect line): the model is not asked.
 * @example chunkStage(scriptedReply("Let's talk about something else!"))
 */
export async function* scriptedReply(text: string): AsyncGenerator<string> {
  yield text;
}

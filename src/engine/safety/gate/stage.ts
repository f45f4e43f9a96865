/**
 * The gate as a safety stage for today's turn pipeline (src/engine/turn.ts): it consumes the chunker's frames
 * (text fragments and speech units) and yields only what passed, plus `notice` frames that become
 * `safety_policy` events. Give it a function that returns the turn's output check, or null for no check.
 *
 *   createEngine({ ..., safety: gatedSafetyStage((turn) => policy.checksOutput ? (s) => policy.checkOutput(s) : null) })
 *
 * When a sentence is replaced the stage returns, which ends the chunker and the model request upstream.
 */
import type { ReplyFrame } from "../../frames.ts";
import type { Incident } from "../policy/compiled.ts";
import type { SafetyStage, SafetyTurn } from "../safety-stage.ts";
import { type GateEvent, OutputGate, type UnitCheck } from "./output-gate.ts";

/** Called with each incident an output check asks for (record it without text). */
export type IncidentSink = (incident: Incident, turn: SafetyTurn) => void;

function toFrame(event: GateEvent): ReplyFrame {
  return event.type === "notice" ? { type: "notice", category: event.category, action: event.action } : event;
}

/**
 * A SafetyStage that holds text until its sentence passes the turn's output check.
 * @example gatedSafetyStage(() => (s) => builtinPolicy("default")!.checkOutput(s))
 */
export function gatedSafetyStage(checkFor: (turn: SafetyTurn) => UnitCheck | null, onIncident?: IncidentSink): SafetyStage {
  return {
    name: "policy-gate",
    async *run(frames: AsyncIterable<ReplyFrame>, turn: SafetyTurn): AsyncGenerator<ReplyFrame> {
      const check = checkFor(turn);
      if (!check) {
        yield* frames;
        return;
      }
      const gate = new OutputGate(check);
      let reported = 0;
      const flushIncidents = (): void => {
        for (; reported < gate.incidents.length; reported++) onIncident?.(gate.incidents[reported] as Incident, turn);
      };
      for await (const frame of frames) {
        if (turn.signal.aborted) return;
        if (frame.type === "text") gate.push(frame.text);
        else if (frame.type === "speech") {
          for (const event of await gate.unit(frame.text)) yield toFrame(event);
          flushIncidents();
          if (gate.ended) return;
        } else yield frame;
      }
      if (turn.signal.aborted) return;
      for (const event of await gate.end()) yield toFrame(event);
      flushIncidents();
    },
  };
}

/** The safety seam between the chunker and the output (pass-through for now). */
export { passThroughSafety, type SafetyStage, type SafetyTurn } from "./safety-stage.ts";

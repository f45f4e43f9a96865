/** Safety: the seam between the chunker and the output, the engine's default gate, and the list of built-in policy names. */
export { passThroughSafety, type SafetyStage, type SafetyTurn, type TurnSafety } from "./safety-stage.ts";
export { turnSafetyStage, scriptedReply } from "./turn-stage.ts";
export { SAFETY_POLICIES, DEFAULT_SAFETY_POLICY, findSafetyPolicy, safetyPolicyNames, type SafetyPolicyInfo } from "./policies.ts";

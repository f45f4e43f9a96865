/** Safety: the seam between the chunker and the output (pass-through for now) and the list of policy names. */
export { passThroughSafety, type SafetyStage, type SafetyTurn } from "./safety-stage.ts";
export { SAFETY_POLICIES, DEFAULT_SAFETY_POLICY, findSafetyPolicy, safetyPolicyNames, type SafetyPolicyInfo } from "./policies.ts";

/**
 * Safety: the seam between the chunker and the output, the engine's default gate, the list of built-in policy
 * names, and the rules library loaded lazily (lazy.ts). Everything here is cheap to import.
 */

export { safetyLibrary, warmUpSafetyLater } from "./lazy.ts";
export { builtinPolicyEntries, DEFAULT_SAFETY_POLICY, findSafetyPolicy, SAFETY_POLICIES, type SafetyPolicyInfo, safetyPolicyNames } from "./policies.ts";
export { passThroughSafety, type SafetyStage, type SafetyTurn, type TurnSafety } from "./safety-stage.ts";
export { scriptedReply, turnSafetyStage } from "./turn-stage.ts";

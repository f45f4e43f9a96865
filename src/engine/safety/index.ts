/**
 * Safety: the seam between the chunker and the output, the engine's default gate, the list of built-in policy
 * names, and the rules library loaded lazily (lazy.ts). Everything here is cheap to import.
 */
export { passThroughSafety, type SafetyStage, type SafetyTurn, type TurnSafety } from "./safety-stage.ts";
export { turnSafetyStage, scriptedReply } from "./turn-stage.ts";
export { SAFETY_POLICIES, DEFAULT_SAFETY_POLICY, findSafetyPolicy, safetyPolicyNames, builtinPolicyEntries, type SafetyPolicyInfo } from "./policies.ts";
export { safetyLibrary, warmUpSafetyLater } from "./lazy.ts";

/**
 * Child safety as a library: the one import the turn and the HTTP routes need. Nothing here is wired yet;
 * see the README's "Child safety" section for how each part plugs in.
 *
 *   const policy = await resolvePolicy(config.safety_policy, (name) => repo.findTeamPolicy(teamId, name));
 *   const checker = moderated(policy, createModeration(appConfig), appConfig.moderationTimeoutMs);
 *   const verdict = await checker.checkInput(text, { stance: session.stance });   // before the model
 *   const stage = gatedSafetyStage(() => (s) => checker.checkOutput(s, { stance }));  // between chunker and output
 */
export { CATEGORIES, CATEGORY_DESCRIPTIONS, type Category, type Direction, FIXED_CATEGORIES, type Finding } from "./detect/categories.ts";
export { detect } from "./detect/detector.ts";
export { findPii, type PiiKind, PLACEHOLDERS, type Redaction, redactPii } from "./detect/pii.ts";
export { type GateEvent, OutputGate, type UnitCheck } from "./gate/output-gate.ts";
export { gatedSafetyStage, type IncidentSink } from "./gate/stage.ts";
export { createModeration } from "./moderation/create.ts";
export { GuardModeration } from "./moderation/guard.ts";
export { type ModeratedChecker, type ModeratedOptions, moderated } from "./moderation/moderated.ts";
export { OpenAiModeration } from "./moderation/openai.ts";
export { ModerationError, type ModerationProvider } from "./moderation/types.ts";
export { BUILTIN_POLICIES, DEFAULT_POLICY, type PolicySpec } from "./policy/builtin.ts";
export {
  type CheckOptions,
  CompiledPolicy,
  type Incident,
  type InputVerdict,
  type Notice,
  type NoticeAction,
  type NoticeCategory,
  type OutputVerdict,
} from "./policy/compiled.ts";
export { ACTIONS, type PolicyAction, RESERVED_NAMES, TeamPolicyBody, TeamPolicyCreate, validateTeamPolicy, validateTeamPolicyCreate } from "./policy/model.ts";
export { builtinPolicy, type PolicyRef, policyName, resolvePolicy, type TeamPolicyRow, teamPolicy } from "./policy/resolve.ts";
export { isAttempt, NEW_SESSION, observe, type SessionSafety, type Stance, type TrackerStep } from "./session/tracker.ts";

import { BUILTIN_POLICIES } from "./policy/builtin.ts";
import { builtinPolicy } from "./policy/resolve.ts";

/** `GET /api/policies` entries for the built-in policies ("default" names the strictest). */
export function builtinPolicyList(): { name: string; description: string; builtin: true }[] {
  return [
    { name: "default", description: "The strictest built-in children's policy (children_strict).", builtin: true },
    ...Object.values(BUILTIN_POLICIES).map((p) => ({ name: p.name, description: p.description, builtin: true as const })),
  ];
}

/** Compiles every rule once (the first check otherwise pays ~50-100 ms of regex compilation); call at startup. */
export function warmUpSafety(): void {
  for (const name of Object.keys(BUILTIN_POLICIES)) {
    const policy = builtinPolicy(name);
    policy?.checkInput("hello, my name is Sam Jones and I'm 8 years old, call me on 555-123-4567");
    policy?.checkOutput("Hello there, what a lovely day for a story!");
  }
}

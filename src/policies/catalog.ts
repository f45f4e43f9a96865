/**
 * The safety policies a configuration may name, as the API lists them: the engine's own registry
 * (engine/safety/policies.ts, which the configuration check reads too) behind a "default" entry that names
 * the policy used when a configuration names none.
 */
import { DEFAULT_SAFETY_POLICY, SAFETY_POLICIES, type SafetyPolicyInfo } from "../engine/safety/index.ts";

export type PolicyInfo = SafetyPolicyInfo;

/** Every policy a configuration may name today, "default" first. */
export function listPolicies(): PolicyInfo[] {
  return [
    { name: "default", description: `hoot's default: ${DEFAULT_SAFETY_POLICY}, the strictest built-in children's policy.`, builtin: true },
    ...SAFETY_POLICIES,
  ];
}

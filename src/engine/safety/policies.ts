/**
 * The safety policies a configuration may name (`safety_policy`), in one list: configuration checks read it,
 * `GET /api/policies` can serve it, and the safety stage receives the chosen name per turn. The first entry is
 * the default, the strictest children's policy.
 */

export interface SafetyPolicyInfo {
  name: string;
  description: string;
  builtin: boolean;
}

/** Built-in policies; the first is the default. */
export const SAFETY_POLICIES: readonly SafetyPolicyInfo[] = [
  { name: "children_strict", description: "The strictest children's policy (the default).", builtin: true },
  { name: "children_standard", description: "A children's policy for older children.", builtin: true },
];

/** The policy used when a configuration names none. */
export const DEFAULT_SAFETY_POLICY = (SAFETY_POLICIES[0] as SafetyPolicyInfo).name;

/** Every policy name, for error messages. */
export function safetyPolicyNames(): string[] {
  return SAFETY_POLICIES.map((policy) => policy.name);
}

/**
 * The policy called `name`, or null (a lookup by value, so "constructor" or "__proto__" finds nothing).
 * @example findSafetyPolicy("children_strict")?.builtin === true
 */
export function findSafetyPolicy(name: string): SafetyPolicyInfo | null {
  return SAFETY_POLICIES.find((policy) => policy.name === name) ?? null;
}

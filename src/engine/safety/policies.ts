/**
 * The built-in safety policies by name, in one list derived from the library's own specs (policy/builtin.ts):
 * configuration messages, `GET /api/policies` and the console read it. The first entry is the default, the
 * strictest children's policy. A team's own policies live in the database (src/safety-policies).
 */
import { BUILTIN_POLICIES, DEFAULT_POLICY } from "./policy/builtin.ts";

export interface SafetyPolicyInfo {
  name: string;
  description: string;
  builtin: boolean;
}

/** Built-in policies; the first is the default. */
export const SAFETY_POLICIES: readonly SafetyPolicyInfo[] = [
  BUILTIN_POLICIES[DEFAULT_POLICY]!,
  ...Object.values(BUILTIN_POLICIES).filter((p) => p.name !== DEFAULT_POLICY),
].map((p) => ({ name: p.name, description: p.description, builtin: true }));

/** The policy used when a configuration names none. */
export const DEFAULT_SAFETY_POLICY = DEFAULT_POLICY;

/** Every built-in policy name, for error messages. */
export function safetyPolicyNames(): string[] {
  return SAFETY_POLICIES.map((policy) => policy.name);
}

/**
 * The built-in policy called `name`, or null (a lookup by value, so "constructor" or "__proto__" finds nothing).
 * @example findSafetyPolicy("children_strict")?.builtin === true
 */
export function findSafetyPolicy(name: string): SafetyPolicyInfo | null {
  return SAFETY_POLICIES.find((policy) => policy.name === name) ?? null;
}

/**
 * The built-in safety policies by name, as a plain list that costs nothing to import: configuration messages,
 * `GET /api/policies` and the console read it without loading the rules (the rules library is loaded in the
 * background after start-up, see lazy.ts). test/safety/policy-list.test.ts keeps it equal to the library's
 * own specs (policy/builtin.ts). The first entry is the default, the strictest children's policy. A team's own
 * policies live in the database (src/safety-policies).
 */

export interface SafetyPolicyInfo {
  name: string;
  description: string;
  builtin: boolean;
}

/** Built-in policies; the first is the default. */
export const SAFETY_POLICIES: readonly SafetyPolicyInfo[] = [
  {
    name: "children_strict",
    description:
      "Strict policy for young children (the default): every category is intercepted, mild words included; personal information is redacted; model " +
      "output is checked sentence by sentence.",
    builtin: true,
  },
  {
    name: "children_standard",
    description:
      "Looser policy for teens: mild words and play-fighting pass, a teen's own swearing reaches the model; everything else is intercepted as in " +
      "children_strict and model output is still checked.",
    builtin: true,
  },
];

/** The policy used when a configuration names none. */
export const DEFAULT_SAFETY_POLICY = (SAFETY_POLICIES[0] as SafetyPolicyInfo).name;

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

/** `GET /api/policies` entries for the built-in policies, "default" first (it names the strictest). */
export function builtinPolicyEntries(): SafetyPolicyInfo[] {
  return [
    { name: "default", description: `hoot's default: ${DEFAULT_SAFETY_POLICY}, the strictest built-in children's policy.`, builtin: true },
    ...SAFETY_POLICIES,
  ];
}

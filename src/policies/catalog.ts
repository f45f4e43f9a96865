/**
 * The safety policies a configuration may name, as one small list. The engine's own registry of built-in
 * policies is being written beside this work; at merge this list is repointed at it (or it at this), so the
 * route below and the socket's check read the same names.
 */
export interface PolicyInfo {
  name: string;
  description: string;
  builtin: boolean;
}

/** Built-in policies, strictest first: the first is what "default" (or no policy) means. */
export const BUILTIN_POLICIES: readonly PolicyInfo[] = [
  {
    name: "children_strict",
    description: "The strictest built-in children's policy, for the youngest players.",
    builtin: true,
  },
  {
    name: "children_standard",
    description: "A built-in children's policy for older players: a little less strict than children_strict.",
    builtin: true,
  },
];

/** Every policy a configuration may name today, "default" first. */
export function listPolicies(): PolicyInfo[] {
  const strictest = BUILTIN_POLICIES[0]!;
  return [
    { name: "default", description: `hoot's default: ${strictest.name}, the strictest built-in children's policy.`, builtin: true },
    ...BUILTIN_POLICIES,
  ];
}

/**
 * The safety policies a configuration may name, as `GET /api/policies` lists them: the built-in ones
 * ("default" first, naming the strictest) from the safety library, then the caller's team's own.
 */
import { builtinPolicyEntries } from "../engine/index.ts";
import { type SafetyPolicyNeeds, teamPolicySummaries } from "../safety-policies/service.ts";

export interface PolicyInfo {
  name: string;
  description: string;
  builtin: boolean;
}

/** Every policy the caller's configurations may name: built-ins, then the team's (none for the operator). */
export async function listPolicies(deps: SafetyPolicyNeeds, teamId: number | null): Promise<PolicyInfo[]> {
  return [...builtinPolicyEntries(), ...(teamId === null ? [] : await teamPolicySummaries(deps, teamId))];
}

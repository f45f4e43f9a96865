/**
 * From what a configuration says to a compiled checker, cached so per-sentence cost stays low:
 *   - `safety_policy`: a name, `{"reference": name}`, null, "" or "default" (the strictest built-in);
 *   - a built-in name resolves without a lookup; any other name is a team policy the caller looks up in its
 *     own team (another team's policies are invisible) and passes here with a version key (its `updated_at`).
 *
 * Compiled policies are kept in a small LRU keyed by team, name and version, so editing a policy
 * (a new version key) takes effect at the next `set_configuration` and old versions fall out.
 */
import { builtinSpec, DEFAULT_POLICY, teamSpec } from "./builtin.ts";
import { CompiledPolicy } from "./compiled.ts";
import type { TeamPolicyBody } from "./model.ts";

export type PolicyRef = string | { reference: string } | null | undefined;

/**
 * The policy name a configuration value refers to; "default", "", null and absent give the default.
 * @example policyName({ reference: "quiet" }) // "quiet"
 */
export function policyName(ref: PolicyRef): string {
  const name = typeof ref === "string" ? ref : ref?.reference;
  return name === undefined || name === null || name.trim() === "" || name === "default" ? DEFAULT_POLICY : name.trim();
}

const builtins = new Map<string, CompiledPolicy>();

/** The compiled built-in policy for a reference, or null when the name is not a built-in one. */
export function builtinPolicy(ref: PolicyRef): CompiledPolicy | null {
  const name = policyName(ref);
  const cached = builtins.get(name);
  if (cached) return cached;
  const spec = builtinSpec(name);
  if (!spec) return null;
  const compiled = new CompiledPolicy(spec);
  builtins.set(name, compiled);
  return compiled;
}

/** A stored team policy as the wiring reads it from its table. */
export interface TeamPolicyRow {
  teamId: string | number;
  name: string;
  body: TeamPolicyBody;
  /** Changes whenever the body changes (e.g. `updated_at` or a version number). */
  version: string | number;
}

const MAX_TEAM_POLICIES = 500;
const teamCache = new Map<string, CompiledPolicy>();

/**
 * Compiles a team policy (validated with `validateTeamPolicy` when it was stored), from the cache when it can.
 * @example teamPolicy({ teamId: 1, name: "quiet", body: { categories: { violence: "allow" } }, version: 3 })
 */
export function teamPolicy(row: TeamPolicyRow): CompiledPolicy {
  const key = `${row.teamId}\u0000${row.name}\u0000${row.version}`;
  const cached = teamCache.get(key);
  if (cached) {
    teamCache.delete(key);
    teamCache.set(key, cached);
    return cached;
  }
  const compiled = new CompiledPolicy(teamSpec(row.name, row.body));
  teamCache.set(key, compiled);
  if (teamCache.size > MAX_TEAM_POLICIES) teamCache.delete(teamCache.keys().next().value as string);
  return compiled;
}

/**
 * Resolves a configuration's policy: a built-in one directly, else the team's row from `lookup`
 * (which must search only the caller's team). Null when the name is unknown to this team.
 * @example await resolvePolicy({ reference: "quiet" }, (name) => repo.findPolicy(teamId, name))
 */
export async function resolvePolicy(
  ref: PolicyRef,
  lookup: (name: string) => TeamPolicyRow | null | Promise<TeamPolicyRow | null>,
): Promise<CompiledPolicy | null> {
  const builtin = builtinPolicy(ref);
  if (builtin) return builtin;
  const row = await lookup(policyName(ref));
  return row ? teamPolicy(row) : null;
}

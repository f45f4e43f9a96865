/**
 * Team safety policies: a team's own variations on a built-in policy (per-category actions, redirect lines,
 * extra blocked and allowed terms), stored as validated JSON and referenced from a configuration by name.
 *
 * Rules it keeps:
 * - every read and write is scoped to the caller's team; another team's policy is simply not found (404);
 * - a body is stored only after the safety library validated it, and every stored body is validated again
 *   when a session resolves it (a body that a newer hoot no longer accepts fails set_configuration clearly
 *   instead of running half-understood);
 * - names are unique per team and may not take a built-in name ("default", "children_strict", ...);
 * - every change bumps `version`: compiled copies are cached by (id, version), and a session keeps the copy
 *   it resolved until it reconfigures, so an edit or a delete never changes a conversation mid-way;
 * - a PUT that carries `version` is refused (409) when the stored one has moved on, so two editors cannot
 *   silently overwrite each other.
 */
import type { Config } from "../config.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { SafetyPolicyRow } from "../db/schema.ts";
import type { Store } from "../db/store.ts";
import type { TeamPolicyBody, TeamPolicyRow } from "../engine/index.ts";
import { safetyLibrary } from "../engine/index.ts";
import { Conflict, InvalidRequest, LimitReached, NotFound } from "../errors.ts";
import type { StoredPolicy } from "../interact/safety.ts";
import type { TeamPolicyView } from "./model.ts";
import type { SafetyPolicyRepo } from "./repo.ts";

/** What the team safety policies feature needs. */
export interface SafetyPolicyNeeds {
  store: Store<{ safetyPolicies: SafetyPolicyRepo }>;
}

/** Writes also need the cap on policies per team (each compiles its own terms; a bound keeps memory and listing predictable). */
type WriteNeeds = SafetyPolicyNeeds & { config: Pick<Config, "maxSafetyPoliciesPerTeam"> };

/** Fields GET shows that PUT accepts back unchanged (so GET -> edit -> PUT round-trips). */
const READ_ONLY = ["builtin", "created_at", "updated_at"] as const;

/** Every policy of the team, by name. */
export async function listTeamPolicies(deps: SafetyPolicyNeeds, teamId: number): Promise<TeamPolicyView[]> {
  return (await deps.store.safetyPolicies.list(teamId)).map(show);
}

/** The team's policy `name`, or 404. */
export async function getTeamPolicy(deps: SafetyPolicyNeeds, teamId: number, name: string): Promise<TeamPolicyView> {
  const row = await deps.store.safetyPolicies.find(teamId, name);
  if (!row) throw new NotFound("safety policy");
  return show(row);
}

/** Creates a policy from a POST body (`name` and the policy); 400 `invalid_policy`, 409 `name_taken`. */
export async function createTeamPolicy(deps: WriteNeeds, teamId: number, body: unknown): Promise<TeamPolicyView> {
  const checked = (await safetyLibrary()).validateTeamPolicyCreate(body);
  if (!checked.ok) throw new InvalidRequest(sentence(checked.error), "invalid_policy");
  const { name, ...policy } = checked.value;
  return show(await insertNew(deps, teamId, name, policy, deps.config.maxSafetyPoliciesPerTeam));
}

/**
 * Creates or replaces the team's policy `name` from a PUT body (the policy, optionally with the fields GET
 * shows: `name` must then match, `version` must be the stored one). `created` says which happened.
 */
export async function putTeamPolicy(deps: WriteNeeds, teamId: number, name: string, body: unknown): Promise<{ created: boolean; policy: TeamPolicyView }> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new InvalidRequest("The request body must be a JSON object (a team policy).", "invalid_policy");
  const fields = new Map(Object.entries(body));
  const named = fields.get("name");
  if (named !== undefined && named !== name)
    throw new InvalidRequest(
      `Field "name" ("${String(named)}") does not match the policy in the path ("${name}"); a policy is renamed by creating the new name and deleting ` +
        `the old one.`,
      "invalid_policy",
    );
  const version = fields.get("version");
  if (version !== undefined && !Number.isSafeInteger(version))
    throw new InvalidRequest('Field "version" must be the whole number GET answered.', "invalid_policy");
  for (const key of ["name", "version", ...READ_ONLY]) fields.delete(key);
  const candidate = Object.fromEntries(fields);
  // Validated with its name, so a path that is not a valid policy name is refused like a POST body would be.
  const checked = (await safetyLibrary()).validateTeamPolicyCreate({ ...candidate, name });
  if (!checked.ok) throw new InvalidRequest(sentence(checked.error), "invalid_policy");
  const { name: _name, ...policy } = checked.value;
  return deps.store.transaction(async (tx) => {
    const current = await tx.safetyPolicies.find(teamId, name);
    if (!current) {
      if (version !== undefined) throw new NotFound("safety policy");
      return { created: true, policy: show(await insertNew({ store: tx }, teamId, name, policy, deps.config.maxSafetyPoliciesPerTeam)) };
    }
    if (version !== undefined && version !== current.version) {
      throw new Conflict(`The policy changed since version ${String(version)} (it is at version ${current.version}); read it again and reapply your edit.`);
    }
    return { created: false, policy: show((await tx.safetyPolicies.replace(teamId, name, JSON.stringify(policy))) as SafetyPolicyRow) };
  });
}

/** Deletes the team's policy `name`, or 404. Sessions that use it keep their compiled copy until they reconfigure. */
export async function deleteTeamPolicy(deps: SafetyPolicyNeeds, teamId: number, name: string): Promise<void> {
  if (!(await deps.store.safetyPolicies.delete(teamId, name))) throw new NotFound("safety policy");
}

/** `GET /api/policies` entries for the team's own policies. */
export async function teamPolicySummaries(deps: SafetyPolicyNeeds, teamId: number): Promise<{ name: string; description: string; builtin: false }[]> {
  return (await deps.store.safetyPolicies.list(teamId)).map((row) => ({ name: row.name, description: parse(row)?.description ?? "", builtin: false }));
}

/** The team's policy names (for messages). */
export function teamPolicyNames(deps: SafetyPolicyNeeds, teamId: number): Promise<string[]> {
  return deps.store.safetyPolicies.names(teamId);
}

/**
 * The team's policy `name` for a session: validated again and keyed for the compiled cache, or why it
 * cannot be used; null when the team has none by that name.
 * @example await resolveStoredPolicy(deps, 3, "space_game") // { row: { teamId: 3, name, body, version: "12:2" } }
 */
export async function resolveStoredPolicy(deps: SafetyPolicyNeeds, teamId: number, name: string): Promise<StoredPolicy | null> {
  const row = await deps.store.safetyPolicies.find(teamId, name);
  if (!row) return null;
  const checked = (await safetyLibrary()).validateTeamPolicy(parse(row));
  if (!checked.ok) return { invalid: checked.error };
  // The row id is part of the key: a policy deleted and created again starts at version 1 with another id.
  const stored: TeamPolicyRow = { teamId, name: row.name, body: checked.value, version: `${row.id}:${row.version}` };
  return { row: stored };
}

async function insertNew(deps: SafetyPolicyNeeds, teamId: number, name: string, policy: TeamPolicyBody, cap: number): Promise<SafetyPolicyRow> {
  if ((await deps.store.safetyPolicies.count(teamId)) >= cap)
    throw new LimitReached("safety policies", cap, "HOOT_MAX_SAFETY_POLICIES_PER_TEAM", "delete one first");
  try {
    return await deps.store.safetyPolicies.insert(teamId, name, JSON.stringify(policy));
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(`The team already has a safety policy called "${name}".`, "name_taken");
    throw error;
  }
}

function parse(row: SafetyPolicyRow): TeamPolicyBody | null {
  try {
    return JSON.parse(row.body) as TeamPolicyBody;
  } catch {
    return null;
  }
}

function show(row: SafetyPolicyRow): TeamPolicyView {
  return {
    name: row.name,
    ...(parse(row) ?? {}),
    builtin: false,
    version: row.version,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** The library's sentences start lowercase ('field "x" ...'); API errors are sentences. The library words every rule
 * itself (issue 24: no answer quotes a pattern or a schema). */
function sentence(error: string): string {
  // A field name is repeated only when it plainly is one (never a client's odd text, as the HTTP layer does).
  const unknown = /^unknown field "(.*)"\.?$/i.exec(error);
  if (unknown && !/^[A-Za-z0-9_.-]{1,64}$/.test(unknown[1] ?? "")) return "The request body has an unknown field.";
  const worded = error.replace(/ is not valid: expected /i, " must be ");
  const text = worded.charAt(0).toUpperCase() + worded.slice(1);
  return text.endsWith(".") ? text : `${text}.`;
}

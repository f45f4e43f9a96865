/**
 * The app behind a session's safety guard (safety.ts): team policies from src/safety-policies, incidents
 * into src/incidents, and the moderation model the settings name (src/engine-wiring.ts).
 */
import type { Deps } from "../deps.ts";
import { buildModeration } from "../engine-wiring.ts";
import { recordIncident } from "../incidents/service.ts";
import { resolveStoredPolicy, teamPolicyNames } from "../safety-policies/service.ts";
import type { SafetyPorts } from "./safety.ts";

/** The safety ports over the database and settings. */
export function createSafetyPorts(deps: Pick<Deps, "db" | "config" | "logger">): SafetyPorts {
  const moderation = buildModeration(deps.config);
  const logger = deps.logger.child({ component: "safety" });
  return {
    findTeamPolicy: (teamId, name) => resolveStoredPolicy(deps, teamId, name),
    teamPolicyNames: (teamId) => teamPolicyNames(deps, teamId),
    recordIncident: (incident) => recordIncident(deps.db, logger, incident),
    moderation: moderation.provider,
    moderationTimeoutMs: moderation.timeoutMs,
  };
}

/**
 * The app behind a session's safety guard (src/interact/safety.ts): team policies from src/safety-policies,
 * incidents into src/incidents, and the moderation model the settings name (engine-wiring.ts). Built here, in
 * the composition root, and handed to the interact socket, which names none of them.
 */

import { warmUpSafetyLater } from "../engine/index.ts";
import { incidentRecorder } from "../incidents/service.ts";
import type { SafetyPorts } from "../interact/safety.ts";
import { resolveStoredPolicy, teamPolicyNames } from "../safety-policies/service.ts";
import type { Deps } from "./deps.ts";
import { buildModeration } from "./engine-wiring.ts";

/** The safety ports over the database and settings; starts loading the rules in the background. */
export function createSafetyPorts(deps: Pick<Deps, "store" | "config" | "logger" | "metrics">): SafetyPorts {
  const moderation = buildModeration(deps.config);
  const logger = deps.logger.child({ component: "safety" });
  // Off the start-up path: the rules load and compile on a timer, after the server starts listening.
  warmUpSafetyLater((error) => logger.error({ event: "safety_unavailable", err: (error as Error).message }, "safety rules failed to load"));
  return {
    findTeamPolicy: (teamId, name) => resolveStoredPolicy(deps, teamId, name),
    teamPolicyNames: (teamId) => teamPolicyNames(deps, teamId),
    // Never rejects: a write that fails is logged and counted. An input's incident is awaited by the turn up to
    // its first attempt; retries while the database is busy go on in the background.
    recordIncident: incidentRecorder(deps, logger),
    moderation: moderation.provider,
    moderationTimeoutMs: moderation.timeoutMs,
  };
}

/**
 * Utilities as a library: definitions and values (types.ts), the two models (local deterministic rules,
 * OpenAI-compatible side calls), the runner, the turn hooks and the two safety guards.
 *
 * @example
 *   const engine = createEngine({ llm, tts, utilities: createOpenAiUtilityModel({ baseUrl, apiKey: "", model }) });
 *   const { data } = await engine.runUtilities({ definitions, names: ["cats"], context: {}, subject, history: [], safetyPolicy: "children_strict", signal });
 */

export { guardUtilityInput, guardUtilityResult, turnUtilityChecker, type UtilityChecker, utilityChecker } from "./guard.ts";
export { hasUtilities, runStandalone, type UtilityHookDeps, withUtilities } from "./hooks.ts";
export { classifyText, createLocalUtilityModel, extractText } from "./local.ts";
export { createOpenAiUtilityModel, MAX_EXTRACT_CHARS, matchAnswer, type OpenAiUtilityOptions } from "./openai.ts";
export { buildQuery } from "./query.ts";
export { runUtilitySet, type UtilityRunnerDeps, type UtilitySetRequest, type UtilitySetResult } from "./run.ts";
export {
  type ClassifyUtility,
  type ExtractUtility,
  UTILITY_ERROR_CODES,
  type Utility,
  type UtilityError,
  type UtilityErrorCode,
  UtilityFailure,
  type UtilityModel,
  type UtilityPlan,
  type UtilityQuery,
  type UtilityRunRequest,
  type UtilityRunResult,
  type UtilitySubject,
  type UtilityValue,
} from "./types.ts";

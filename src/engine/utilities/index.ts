/**
 * Utilities as a library: definitions and values (types.ts), the two models (local deterministic rules,
 * OpenAI-compatible side calls), the runner, the turn hooks and the two safety guards.
 *
 * @example
 *   const engine = createEngine({ llm, tts, utilities: createOpenAiUtilityModel({ baseUrl, apiKey: "", model }) });
 *   const { data } = await engine.runUtilities({ definitions, names: ["cats"], context: {}, subject, history: [], safetyPolicy: "children_strict", signal });
 */
export { UTILITY_ERROR_CODES, UtilityFailure, type ClassifyUtility, type ExtractUtility, type Utility, type UtilityError, type UtilityErrorCode, type UtilityModel, type UtilityPlan, type UtilityQuery, type UtilityRunRequest, type UtilityRunResult, type UtilitySubject, type UtilityValue } from "./types.ts";
export { createLocalUtilityModel, classifyText, extractText } from "./local.ts";
export { createOpenAiUtilityModel, matchAnswer, MAX_EXTRACT_CHARS, type OpenAiUtilityOptions } from "./openai.ts";
export { runUtilitySet, type UtilityRunnerDeps, type UtilitySetRequest, type UtilitySetResult } from "./run.ts";
export { withUtilities, hasUtilities, runStandalone, type UtilityHookDeps } from "./hooks.ts";
export { guardUtilityInput, guardUtilityResult, turnUtilityChecker, utilityChecker, type UtilityChecker } from "./guard.ts";
export { buildQuery } from "./query.ts";

/** The offline, rule-based stand-in language model (not an AI; see provider.ts). */

export { composeReply } from "./compose.ts";
export { paceTokens, splitTokens } from "./pace.ts";
export { createLocalLlm, type LocalLlmOptions } from "./provider.ts";
export { readSituation, type Situation } from "./situation.ts";

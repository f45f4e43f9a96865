/** Prompt assembly: the fixed preamble, the templated character prompt, context, trimmed history, the turn's words. */
export { assemblePrompt, isSpeakFirst, type AssembledPrompt, type PromptInput } from "./assemble.ts";
export { fillTemplate, contextValueText, type FilledTemplate } from "./template.ts";
export { trimHistory } from "./history.ts";
export { findCharacter, type Character } from "./character.ts";
export { PREAMBLE, PRECEDENCE_REMINDER, GREETING_INSTRUCTION, CARRY_ON_INSTRUCTION } from "./preamble.ts";

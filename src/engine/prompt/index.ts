/** Prompt assembly: the fixed preamble, the templated character prompt, context, trimmed history, the turn's words, within the model's budget. */
export { assemblePrompt, isSpeakFirst, type AssembledPrompt, type PromptInput } from "./assemble.ts";
export { fillTemplate, contextValueText, placeholderUses, type FilledTemplate } from "./template.ts";
export { fitContext, cutToTail, CUT_MARK, DEFAULT_PROMPT_BUDGET_CHARS } from "./budget.ts";
export { trimHistory } from "./history.ts";
export { findCharacter, type Character } from "./character.ts";
export { PREAMBLE, PRECEDENCE_REMINDER, GREETING_INSTRUCTION, CARRY_ON_INSTRUCTION } from "./preamble.ts";

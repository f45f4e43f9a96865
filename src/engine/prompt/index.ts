/** Prompt assembly: the fixed preamble, the templated character prompt, context, trimmed history, the turn's words, within the model's budget. */
export { type AssembledPrompt, assemblePrompt, isSpeakFirst, type PromptInput } from "./assemble.ts";
export { CUT_MARK, cutToTail, DEFAULT_PROMPT_BUDGET_CHARS, fitContext } from "./budget.ts";
export { type Character, findCharacter } from "./character.ts";
export { trimHistory } from "./history.ts";
export { CARRY_ON_INSTRUCTION, GREETING_INSTRUCTION, PREAMBLE, PRECEDENCE_REMINDER } from "./preamble.ts";
export { contextValueText, type FilledTemplate, fillTemplate, placeholderUses } from "./template.ts";

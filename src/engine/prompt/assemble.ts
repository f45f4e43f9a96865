/**
 * Prompt assembly, the first stage of a turn. The messages are, in order:
 *
 *   system    PREAMBLE (fixed), the developer's prompt with {{vars}} filled, the precedence reminder,
 *             and the context values labelled as data;
 *   history   the newest remembered messages that fit the character budget (same-role neighbours merged);
 *   user      the child's words, or on "." an app note asking to greet (first turn) or carry on.
 *
 * Everything system-level is one message at the start because several open chat templates (Mistral, Gemma)
 * reject a system message anywhere else; the preamble opening it keeps it first and unchangeable.
 *
 * The whole fits the model's budget (budget.ts): the fixed parts always go in; the context may take what is
 * left except the history's share (up to half of it when there is history to show), then the history gets
 * what the context left, up to its own budget.
 */
import type { ChatMessage } from "../llm/types.ts";
import type { Context, HistoryMessage, TurnInput } from "../types.ts";
import { DEFAULT_PROMPT_BUDGET_CHARS, fitContext } from "./budget.ts";
import { trimHistory } from "./history.ts";
import { CARRY_ON_INSTRUCTION, CHARACTER_HEADING, CONTEXT_HEADING, GREETING_INSTRUCTION, PREAMBLE, PRECEDENCE_REMINDER } from "./preamble.ts";
import { contextValueText, fillTemplate, placeholderUses } from "./template.ts";

export interface AssembledPrompt {
  messages: ChatMessage[];
  /** Placeholders in the prompt that the context did not fill. */
  missingVars: string[];
  /** How many history messages fit the budget. */
  historyKept: number;
  /** Whether context values were cut (or dropped) to fit the budget. */
  contextCut: boolean;
}

export type PromptInput = Pick<TurnInput, "text" | "context" | "history"> & { prompt: string };

/** True when the child's text asks the character to speak without new input. */
export function isSpeakFirst(text: string): boolean {
  return text.trim() === ".";
}

/**
 * Builds the messages for one turn, within `budgetChars` characters in all (history within `historyBudgetChars`).
 * @example assemblePrompt({ prompt: "You are Ollie.", text: ".", context: {}, history: [] }, 6000)
 */
export function assemblePrompt(input: PromptInput, historyBudgetChars: number, budgetChars = DEFAULT_PROMPT_BUDGET_CHARS): AssembledPrompt {
  const speakFirst = isSpeakFirst(input.text);
  const isGreeting = speakFirst && !input.history.some((m) => m.role === "assistant");
  const userContent = !speakFirst ? input.text : isGreeting ? GREETING_INSTRUCTION : CARRY_ON_INSTRUCTION;

  const heading = Object.keys(input.context).length > 0 ? CONTEXT_HEADING.length + 3 : 0;
  const fixed = systemText(fillTemplate(input.prompt, {}).text, {}).length + heading + userContent.length;
  const room = Math.max(0, budgetChars - fixed);
  const historyWanted = size(trimHistory(input.history, historyBudgetChars));
  const context = fitContext(input.context, placeholderUses(input.prompt), room - Math.min(historyWanted, Math.floor(room / 2)));
  const filled = fillTemplate(input.prompt, context);
  const system = systemText(filled.text, context);
  const kept = trimHistory(input.history, Math.min(historyBudgetChars, Math.max(0, budgetChars - system.length - userContent.length)));

  const messages: ChatMessage[] = [{ role: "system", content: system }];
  for (const message of mergeNeighbours([...kept, { role: "user", text: userContent }])) {
    messages.push({ role: message.role, content: message.text });
  }
  return { messages, missingVars: filled.missing, historyKept: kept.length, contextCut: context !== input.context };
}

function size(messages: readonly HistoryMessage[]): number {
  return messages.reduce((total, m) => total + m.text.length, 0);
}

function systemText(prompt: string, context: Context): string {
  const parts = [PREAMBLE, `${CHARACTER_HEADING}\n${prompt.trim()}`, PRECEDENCE_REMINDER];
  const lines = Object.entries(context).map(([key, value]) => `- ${oneLine(key)}: ${oneLine(contextValueText(value))}`);
  if (lines.length > 0) parts.push(`${CONTEXT_HEADING}\n${lines.join("\n")}`);
  return parts.join("\n\n");
}

/** Context entries are shown one per line; a newline inside a key or value could fake a new heading. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Chat templates that demand alternating roles fail on two user messages in a row, so neighbours are joined. */
function mergeNeighbours(messages: HistoryMessage[]): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (last && last.role === message.role) out[out.length - 1] = { role: last.role, text: `${last.text}\n${message.text}` };
    else out.push(message);
  }
  return out;
}

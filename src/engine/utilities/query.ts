/**
 * From a utility's definition to the question a model answers: its templates filled from the context
 * exactly as the prompt is (`{{name}}`; an unknown name becomes an empty string), and the part of the
 * conversation it may read. The conversation is bounded: the last few messages, each cut to a length, so a
 * long history never makes a side call slow or costly.
 */
import { fillTemplate } from "../prompt/template.ts";
import type { Context, HistoryMessage } from "../types.ts";
import type { Utility, UtilityQuery, UtilitySubject } from "./types.ts";

/** Messages of earlier conversation a utility sees. */
export const UTILITY_HISTORY_MESSAGES = 6;
/** Characters of each message a utility sees. */
export const UTILITY_MESSAGE_CHARS = 1000;

/**
 * The query for one utility.
 * @example buildQuery(utility, { name: "Mia" }, { role: "child", text: "I love cats" }, history, signal)
 */
export function buildQuery(
  utility: Utility,
  context: Context,
  subject: UtilitySubject | null,
  history: readonly HistoryMessage[],
  signal: AbortSignal,
): UtilityQuery {
  const template = utility.type === "classify" ? utility.classification_question : utility.extract_prompt;
  const extra = utility.additional_context?.trim() ? fillTemplate(utility.additional_context, context).text : null;
  return {
    instruction: fillTemplate(template, context).text.trim(),
    additionalContext: extra,
    subject: subject ? { role: subject.role, text: cut(subject.text) } : null,
    history: history.slice(-UTILITY_HISTORY_MESSAGES).map((message) => ({ role: message.role, text: cut(message.text) })),
    signal,
  };
}

function cut(text: string): string {
  return text.length > UTILITY_MESSAGE_CHARS ? `${text.slice(0, UTILITY_MESSAGE_CHARS)}…` : text;
}

/**
 * Child safety at the two points where utilities touch the conversation. These two functions are the only
 * places utilities call the safety library, so the safety wiring can align them with the turn's own checks:
 *
 *   guardUtilityInput   what a utility may read of the child's words: exactly the text the model would see
 *                       (the policy's input check, so personal information is replaced by placeholders);
 *   guardUtilityResult  every answer passes the policy's output check before it is sent: a redacted answer is
 *                       sent redacted, a dropped or replaced one becomes the error value `utility_blocked`.
 *
 * The checker is anything with the policy's two checks: a CompiledPolicy, or the moderated checker that
 * adds a moderation model behind it (then a slow or failing model withholds the answer: it fails safe).
 */
import type { InputVerdict, Notice, OutputVerdict } from "../safety/checks.ts";
import { safetyLibrary } from "../safety/lazy.ts";
import type { TurnInput } from "../types.ts";
import type { UtilityValue } from "./types.ts";

/** The two checks of a safety policy, synchronous (CompiledPolicy) or not (ModeratedChecker). */
export interface UtilityChecker {
  checkInput(text: string): InputVerdict | Promise<InputVerdict>;
  checkOutput(sentence: string): OutputVerdict | Promise<OutputVerdict>;
}

/**
 * The checker for a configured policy name: the built-in policy of that name, else the strictest built-in
 * one (a team policy the engine cannot see is never looser than the default).
 * @example const checker = utilityChecker("children_standard")
 */
export function utilityChecker(policyName: string): UtilityChecker {
  // The rules library loads off the start-up path (safety/lazy.ts); the first utility call waits for it.
  const policy = safetyLibrary().then((lib) => lib.builtinPolicy(policyName) ?? lib.builtinPolicy(null)!);
  return {
    checkInput: async (text) => (await policy).checkInput(text),
    checkOutput: async (sentence) => (await policy).checkOutput(sentence),
  };
}

/**
 * The checker for one turn: the turn's own output check when the session gave one (its team policy, stance
 * and moderation), so utility answers pass exactly the checks the reply passes; else `utilityChecker`.
 * @example const checker = turnUtilityChecker("children_strict", input)
 */
export function turnUtilityChecker(policyName: string, input?: TurnInput): UtilityChecker {
  const fallback = utilityChecker(policyName);
  const checkOutput = input?.safety?.checkOutput;
  if (!input || !checkOutput) return fallback;
  return { checkInput: fallback.checkInput, checkOutput: (sentence) => checkOutput(sentence, input.signal) };
}

/**
 * The child's words as a utility may see them (personal information replaced, as the model sees them).
 * @example await guardUtilityInput(checker, "mail me at sam@example.com") // "mail me at [email]"
 */
export async function guardUtilityInput(checker: UtilityChecker, text: string): Promise<string> {
  try {
    return (await checker.checkInput(text)).text;
  } catch {
    // A check that cannot finish still never shows a utility the child's contact details.
    return (await safetyLibrary()).redactPii(text).text;
  }
}

/**
 * An answer as it may be sent, and the safety decisions taken on it (category and action, never the text).
 * @example await guardUtilityResult(checker, "yes") // { value: "yes", notices: [] }
 */
export async function guardUtilityResult(checker: UtilityChecker, answer: string): Promise<{ value: UtilityValue; notices: Notice[] }> {
  if (answer.trim() === "") return { value: answer, notices: [] };
  const verdict = await checker.checkOutput(answer);
  if (verdict.action === "pass") return { value: answer, notices: verdict.notices };
  if (verdict.action === "redact") return { value: verdict.text, notices: verdict.notices };
  return { value: { error: "the answer was withheld by the safety policy", code: "utility_blocked" }, notices: verdict.notices };
}

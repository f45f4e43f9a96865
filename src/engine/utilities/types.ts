/**
 * Utilities: small side questions about the conversation that run beside a turn and hand their answers to
 * the app as `data` frames, as the hosted engine's clients define them:
 *
 *   classify  {type: "classify", classification_question, answers, additional_context?}  -> one of `answers`
 *   extract   {type: "extract", extract_prompt, additional_context?}                       -> a short string
 *
 * An interact names which ones run `on_input` (before the reply; their answers fill `{{name}}` in the prompt),
 * `on_input_non_blocking` (beside the reply) and `on_output` (on the reply). A utility that fails gives an
 * error value for its name, never a failed turn.
 */
import type { Context, HistoryMessage } from "../vocabulary.ts";

export interface ClassifyUtility {
  type: "classify";
  /** A template like the prompt: `{{name}}` is filled from the context. */
  classification_question: string;
  answers: string[];
  additional_context?: string;
}

export interface ExtractUtility {
  type: "extract";
  /** A template like the prompt. */
  extract_prompt: string;
  additional_context?: string;
}

export type Utility = ClassifyUtility | ExtractUtility;

/** Codes an error value can carry (they are also in the wire's error codes, src/errors.ts). */
export const UTILITY_ERROR_CODES = ["utility_failed", "utility_timeout", "utility_blocked"] as const;
export type UtilityErrorCode = (typeof UTILITY_ERROR_CODES)[number];

/** What a utility that could not give an answer reports under its name: `{"error": <sentence>, "code"}`. */
export interface UtilityError {
  error: string;
  code: UtilityErrorCode;
}

/** One utility's result: its answer, or an error value. */
export type UtilityValue = string | UtilityError;

/** Which utilities one turn runs, and where. Names are looked up in `definitions` only (a Map, never an object). */
export interface UtilityPlan {
  definitions: ReadonlyMap<string, Utility>;
  onInput: readonly string[];
  onInputNonBlocking: readonly string[];
  onOutput: readonly string[];
}

/** The text a utility looks at: the child's words, or the character's. */
export interface UtilitySubject {
  role: "child" | "character";
  text: string;
}

/** One question for a utility model, with its templates already filled. */
export interface UtilityQuery {
  /** The filled classification question or extract prompt. */
  instruction: string;
  additionalContext: string | null;
  /** The message the utility is about (null: only the conversation so far). */
  subject: UtilitySubject | null;
  /** Recent conversation before the subject, oldest first. */
  history: readonly HistoryMessage[];
  signal: AbortSignal;
}

/**
 * Answers utility questions: the OpenAI-compatible side calls or the local deterministic rules.
 * Implementations throw on failure (a UtilityFailure says which code); the runner turns that into an error value.
 */
export interface UtilityModel {
  readonly name: string;
  /** One of `answers`, exactly as the developer wrote it. */
  classify(query: UtilityQuery, answers: readonly string[]): Promise<string>;
  /** A short string ("" when the information is not there). */
  extract(query: UtilityQuery): Promise<string>;
}

/** A utility call that failed, with the code its error value carries. */
export class UtilityFailure extends Error {
  constructor(
    message: string,
    readonly code: UtilityErrorCode = "utility_failed",
  ) {
    super(message);
    this.name = "UtilityFailure";
  }
}

/** A request to run some utilities outside a turn (the `run` request). */
export interface UtilityRunRequest {
  definitions: ReadonlyMap<string, Utility>;
  names: readonly string[];
  context: Context;
  subject: UtilitySubject | null;
  history: readonly HistoryMessage[];
  /** The configured safety policy's name (the results pass its output checks). */
  safetyPolicy: string;
  signal: AbortSignal;
}

/** The results of a `run`: values by name, in the order asked. */
export interface UtilityRunResult {
  data: Record<string, UtilityValue>;
  /** Safety decisions taken on the results (category and action only). */
  notices: { category: string; action: string }[];
}

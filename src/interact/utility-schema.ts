/**
 * What a utility definition looks like on the wire and in stored utilities, as the hosted engine's clients
 * send it (ug-python-sdk `utilities.py`, ug-js-sdk `Classify`/`Extract`, ug-unity-sdk `Classify`/`Extract`):
 *
 *   {"type": "classify", "classification_question": "...", "answers": ["yes", "no"], "additional_context"?: "..."}
 *   {"type": "extract", "extract_prompt": "...", "additional_context"?: "..."}
 *
 * In a configuration's `utilities` map a value may also be `{"reference": "name"}` (a stored utility), a
 * string (the same as a reference to that name), or null (no utility). `checkUtility` answers one sentence
 * naming the first bad field, so a developer fixes it without reading a schema.
 */
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import type { Utility } from "../engine/index.ts";
import { ruleInWords } from "../rule-words.ts";

/** At most this many utilities in one configuration. */
export const MAX_UTILITIES = 32;

const AdditionalContext = Type.Optional(
  Type.Union([Type.String({ maxLength: 4000 }), Type.Null()], { description: "Extra guidance for the model; a template like the prompt. null means absent." }),
);

export const ClassifySchema = Type.Object(
  {
    type: Type.Literal("classify"),
    classification_question: Type.String({ minLength: 1, maxLength: 2000, description: "A template like the prompt: {{name}} is filled from the context." }),
    answers: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      minItems: 1,
      maxItems: 50,
      description: "The possible answers; the result is always one of them, spelled as here.",
    }),
    additional_context: AdditionalContext,
  },
  { additionalProperties: false, title: "classify utility", description: "Answers a question with one of a fixed list of answers." },
);

export const ExtractSchema = Type.Object(
  {
    type: Type.Literal("extract"),
    extract_prompt: Type.String({ minLength: 1, maxLength: 2000, description: "What to extract; a template like the prompt." }),
    additional_context: AdditionalContext,
  },
  { additionalProperties: false, title: "extract utility", description: 'Extracts a short string ("" when the information is not there).' },
);

export const UtilitySchema = Type.Union([ClassifySchema, ExtractSchema], { title: "utility" });
export type UtilityBody = Static<typeof UtilitySchema>;

const checks = new Map<string, TypeCheck<TSchema>>([
  ["classify", TypeCompiler.Compile(ClassifySchema)],
  ["extract", TypeCompiler.Compile(ExtractSchema)],
]);

/**
 * Null when `value` is a valid utility definition, else a sentence naming the first bad field under `path`.
 * @example checkUtility({ type: "classify", answers: [] }, "config.utilities.cats") // 'field "config.utilities.cats.classification_question" is required'
 */
export function checkUtility(value: unknown, path: string): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `field "${path}" must be a utility ({"type": "classify", ...} or {"type": "extract", ...}), {"reference": name} or null`;
  }
  const type = (value as { type?: unknown }).type;
  const check = typeof type === "string" ? checks.get(type) : undefined;
  if (!check) return `field "${path}.type" must be "classify" or "extract"`;
  const problem = firstProblem(check, value, path);
  if (problem) return problem;
  if (type === "classify") {
    const answers = (value as { answers: string[] }).answers;
    const twice = answers.find((answer, i) => answers.indexOf(answer) !== i);
    if (twice !== undefined) return `field "${path}.answers": ${JSON.stringify(twice)} is listed twice`;
  }
  return null;
}

/**
 * Null when `check` accepts `value`, else a sentence naming its first bad field under `path`.
 * @example firstProblem(TypeCompiler.Compile(ClassifySchema), {}, "utility") // 'field "utility.type" is required'
 */
export function firstProblem(check: TypeCheck<TSchema>, value: unknown, path: string): string | null {
  if (check.Check(value)) return null;
  const first = check.Errors(value).First();
  const where = [path, ...(first?.path ?? "").split("/").filter(Boolean)].join(".");
  if (first?.type === ValueErrorType.ObjectAdditionalProperties) return `unknown field "${where}"`;
  if (first?.type === ValueErrorType.ObjectRequiredProperty) return `field "${where}" is required`;
  return `field "${where}" ${first ? ruleInWords(first) : "is not valid"}`;
}

/**
 * The engine's form of a checked definition (a null `additional_context` is left out).
 * @example toUtility({ type: "extract", extract_prompt: "the pet's name", additional_context: null })
 */
export function toUtility(body: UtilityBody): Utility {
  const extra = body.additional_context ? { additional_context: body.additional_context } : {};
  return body.type === "classify"
    ? { type: "classify", classification_question: body.classification_question, answers: [...body.answers], ...extra }
    : { type: "extract", extract_prompt: body.extract_prompt, ...extra };
}

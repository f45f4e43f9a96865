/**
 * Turns a validation failure into one sentence that names the field, without echoing the schema (Elysia's
 * default 422 body lists the whole schema, which leaks internals) or the value. A field name comes from the
 * request, so it is named only when it looks like a field name (short, plain characters); anything else is
 * "an unknown field", so a response never carries an attacker's text back.
 */
import { ValueErrorType } from "@sinclair/typebox/errors";
import { ruleInWords } from "../rule-words.ts";

interface ValueErrorLike {
  path?: string;
  type?: number;
  schema?: unknown;
}

const NAMEABLE = /^[A-Za-z0-9_.-]{1,64}$/;

/** A sentence describing the first problem of a validation error for `where` (body, query, params). */
export function describeValidation(where: string, errors: readonly ValueErrorLike[]): string {
  const first = errors[0];
  if (!first) return `The request ${where} is not valid.`;
  if (first.type === ValueErrorType.ObjectAdditionalProperties) {
    const extra = errors.find((e) => e.type === ValueErrorType.ObjectAdditionalProperties && e.path);
    const name = extra?.path ? fieldName(extra.path) : null;
    return name ? `Unknown field "${name}" in the request ${where}.` : `The request ${where} has unknown fields.`;
  }
  if (!first.path) {
    if (first.type === undefined || first.type === ValueErrorType.Object) return `The request ${where} must be a JSON object with the documented fields.`;
    return `A value in the request ${where} ${ruleInWords(first)}.`;
  }
  const field = fieldName(first.path);
  if (!field) return `A field in the request ${where} is not valid.`;
  return `Field "${field}" in the request ${where} ${ruleInWords(first)}.`;
}

// "/a/b/0" -> "a.b.0"; null when any segment is not plainly a field name.
function fieldName(path: string): string | null {
  const dotted = path.replace(/^\//, "").replace(/\//g, ".").replace(/~1/g, "/").replace(/~0/g, "~");
  return NAMEABLE.test(dotted) ? dotted : null;
}

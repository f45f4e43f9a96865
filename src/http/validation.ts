/**
 * Turns Elysia's validation error into one sentence that names the field, without echoing the schema
 * (Elysia's default 422 body lists the whole schema, which leaks internals).
 */
interface ValueErrorLike {
  path?: string;
  message?: string;
  type?: number;
  schema?: { minLength?: number; maxLength?: number };
}

// TypeBox ValueErrorType.ObjectAdditionalProperties
const ADDITIONAL_PROPERTIES = 42;

/** A sentence describing the first problem of a validation error for `where` (body, query, params). */
export function describeValidation(where: string, errors: ValueErrorLike[]): string {
  const first = errors[0];
  if (!first) return `The request ${where} is not valid.`;
  const field = (first.path ?? "").replace(/^\//, "").replace(/\//g, ".");
  if (first.type === ADDITIONAL_PROPERTIES) {
    const extra = errors.find((e) => e.type === ADDITIONAL_PROPERTIES && e.path);
    return extra?.path ? `Unknown field "${extra.path.replace(/^\//, "")}" in the request ${where}.` : `The request ${where} has unknown fields.`;
  }
  if (!field) return `The request ${where} must be a JSON object with the documented fields.`;
  return `Field "${field}" in the request ${where} is not valid: ${(first.message ?? "wrong value").toLowerCase()}.`;
}

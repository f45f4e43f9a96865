/**
 * The rule a value broke, in words, for every validation error hoot reports (HTTP bodies, queries and paths;
 * interact requests and configurations). TypeBox's own messages quote the schema ("Expected string to match
 * '^[A-Za-z0-9]…$'"), which tells a caller nothing useful and shows internals, and hoot used to lower-case them,
 * which turned `A-Z` into `a-z` and said names must be lower case. These sentences never quote a pattern,
 * a schema keyword or the value.
 *
 * A schema with a `pattern` says its rule in words in its own `rule` option (`t.String({ pattern, rule: "…" })`),
 * next to the pattern, so the two are read and changed together.
 */
import { ValueErrorType } from "@sinclair/typebox/errors";

interface ErrorLike {
  type?: number;
  schema?: unknown;
}

/**
 * "must be …": what the value must be, from one TypeBox error.
 * @example ruleInWords({ type: ValueErrorType.StringMaxLength, schema: { maxLength: 100 } }) // "must be at most 100 characters long"
 */
export function ruleInWords(error: ErrorLike): string {
  const schema = (typeof error.schema === "object" && error.schema !== null ? error.schema : {}) as Record<string, unknown>;
  const n = (key: string) => (typeof schema[key] === "number" ? (schema[key] as number) : null);
  switch (error.type) {
    case ValueErrorType.String:
      return "must be text";
    case ValueErrorType.Number:
      return "must be a number";
    case ValueErrorType.Integer:
      return "must be a whole number";
    case ValueErrorType.Boolean:
      return "must be true or false";
    case ValueErrorType.Object:
      return "must be an object";
    case ValueErrorType.Array:
    case ValueErrorType.Tuple:
      return "must be a list";
    case ValueErrorType.Null:
      return "must be null";
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.Never:
      return "is not allowed here";
    case ValueErrorType.StringMinLength:
      return n("minLength") === 1 ? "must not be empty" : `must be at least ${n("minLength")} characters long`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${n("maxLength")} characters long`;
    case ValueErrorType.StringPattern:
    case ValueErrorType.StringFormat:
    case ValueErrorType.StringFormatUnknown:
      return typeof schema.rule === "string" ? `must be ${schema.rule}` : "is not in the documented form";
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${n("minimum")}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${n("maximum")}`;
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return `must be more than ${n("exclusiveMinimum")}`;
    case ValueErrorType.NumberExclusiveMaximum:
    case ValueErrorType.IntegerExclusiveMaximum:
      return `must be less than ${n("exclusiveMaximum")}`;
    case ValueErrorType.ArrayMinItems:
      return `must list at least ${n("minItems")} ${n("minItems") === 1 ? "item" : "items"}`;
    case ValueErrorType.ArrayMaxItems:
      return `must list at most ${n("maxItems")} items`;
    case ValueErrorType.ArrayUniqueItems:
      return "must not list an item twice";
    case ValueErrorType.ObjectMinProperties:
      return `must have at least ${n("minProperties")} ${n("minProperties") === 1 ? "field" : "fields"}`;
    case ValueErrorType.ObjectMaxProperties:
      return `must have at most ${n("maxProperties")} fields`;
    case ValueErrorType.ObjectRequiredProperty:
      return "is required";
    case ValueErrorType.ObjectAdditionalProperties:
      return "is not a known field";
    case ValueErrorType.Union: {
      const kinds = unionWords(schema);
      return kinds ? `must be ${kinds}` : "has none of the allowed types";
    }
    default:
      return "is not valid";
  }
}

/** "a whole number or null": the kinds a union allows, or null when one of them has no plain word. */
function unionWords(schema: Record<string, unknown>): string | null {
  const variants = schema.anyOf;
  if (!Array.isArray(variants) || variants.length === 0) return null;
  const words: string[] = [];
  for (const variant of variants) {
    const word = kindWord(typeof variant === "object" && variant !== null ? (variant as Record<string, unknown>) : {});
    if (word === null) return null;
    if (!words.includes(word)) words.push(word);
  }
  // A query's number may come as text or as a number: one rule either way, with its range when one variant has it.
  const kept = words.filter((word) => !words.some((other) => other !== word && other.startsWith(`${word} `)));
  if (kept.some((word) => word.startsWith("a whole number"))) return kept.filter((word) => !word.startsWith("a number")).join(" or ");
  return kept.join(" or ");
}

function kindWord(schema: Record<string, unknown>): string | null {
  if ("const" in schema) return JSON.stringify(schema.const);
  switch (schema.type) {
    case "string":
      if (schema.format === "integer") return "a whole number";
      if (schema.format === "numeric") return "a number";
      if (schema.format === "boolean") return "true or false";
      return typeof schema.format === "string" ? null : "text";
    case "integer":
      return `a whole number${range(schema)}`;
    case "number":
      return `a number${range(schema)}`;
    case "boolean":
      return "true or false";
    case "null":
      return "null";
    case "object":
      return "an object";
    case "array":
      return "a list";
    default:
      return null;
  }
}

function range(schema: Record<string, unknown>): string {
  const { minimum, maximum } = schema;
  if (typeof minimum === "number" && typeof maximum === "number") return ` from ${minimum} to ${maximum}`;
  if (typeof minimum === "number") return ` of at least ${minimum}`;
  if (typeof maximum === "number") return ` of at most ${maximum}`;
  return "";
}

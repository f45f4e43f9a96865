import { t } from "elysia";

/**
 * A positive integer id in a path segment. Kept a string pattern (converted with Number in the handler)
 * because Elysia's numeric coercion reports range failures under another error type, which would lose the
 * "bad id in the path" answer.
 */
export const IdSegment = t.String({ pattern: "^[1-9][0-9]{0,14}$", rule: "a positive whole number", description: "positive integer id" });

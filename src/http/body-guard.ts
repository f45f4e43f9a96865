/**
 * Validates a request body against its route's schema while the body is parsed, before Elysia's own
 * validation runs. Why: Elysia's ValidationError renders the whole body (pretty-printed, which is quadratic
 * in the nesting depth) and the schema into its message the moment it is constructed, even though hoot never
 * shows that message. A body that fails here never reaches Elysia's validator, so that error is never built;
 * a body that passes here passes there too (the same TypeBox schema, compiled the same way).
 */
import type { TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { InvalidRequest } from "../errors.ts";
import { describeValidation } from "./validation.ts";

// Enough to find the unknown field Elysia would have named; never the whole list.
const MAX_ERRORS = 16;

interface RouteLike {
  method: string;
  path: string;
  hooks?: { body?: unknown };
}

export interface BodyGuard {
  /** Notes the body schema of every route; call once every route is registered. Each is compiled on its route's first body. */
  learn(routes: readonly RouteLike[]): void;
  /** Throws a 400 naming the first problem when `body` does not fit the route's schema. */
  check(method: string, route: string, body: unknown): void;
}

/** A route's schema and, once a body has come, its compiled check (null: TypeBox cannot compile it alone). */
interface Entry {
  schema: TSchema;
  check?: TypeCheck<TSchema> | null;
}

/** An empty guard; app.ts fills it once the routes exist. */
export function createBodyGuard(): BodyGuard {
  // A Map keyed by "METHOD path": route patterns are ours, but a Map is never confused by "constructor".
  // Compiling every schema at start-up cost ~10 ms of CPU before the first request; a route's first body pays
  // for its own schema instead (well under a millisecond).
  const entries = new Map<string, Entry>();
  return {
    learn(routes) {
      for (const route of routes) {
        const schema = route.hooks?.body;
        if (isSchema(schema)) entries.set(`${route.method} ${route.path}`, { schema: withElysiaDefaults(schema) });
      }
    },
    check(method, route, body) {
      if (body === undefined) return;
      const entry = entries.get(`${method} ${route}`);
      if (!entry) return;
      if (entry.check === undefined) entry.check = compile(entry.schema);
      const check = entry.check;
      if (!check || check.Check(body)) return;
      const errors = [];
      for (const error of check.Errors(body)) {
        errors.push(error);
        if (errors.length >= MAX_ERRORS) break;
      }
      throw new InvalidRequest(describeValidation("body", errors));
    },
  };
}

function compile(schema: TSchema): TypeCheck<TSchema> | null {
  try {
    return TypeCompiler.Compile(schema);
  } catch {
    // A schema TypeBox cannot compile alone (an Elysia-only kind): Elysia still validates that route.
    return null;
  }
}

function isSchema(value: unknown): value is TSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Elysia refuses unknown fields of a root object that does not say otherwise; do the same.
function withElysiaDefaults(schema: TSchema): TSchema {
  if (schema.type === "object" && !("additionalProperties" in schema)) return { ...schema, additionalProperties: false };
  return schema;
}

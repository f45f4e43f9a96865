/**
 * The team policy schema (TypeBox) and its validation. A team policy starts from a built-in one (`base`) and
 * changes what it needs: per-category actions (one for both directions, or `{input, output, lines}`), its own
 * redirect lines, extra blocked terms and allowed terms, whether model output is checked, and how many
 * boundary-testing attempts move a session to the stricter stance.
 *
 * Rules it keeps (each failure is one sentence naming the field):
 * - self_harm and abuse can only be "escalate" and take no custom lines: the calm trusted-adult reply is fixed;
 * - "redact" is only for personal_info, and personal_info cannot be "allow" (typed contact details must never
 *   be stored or sent to a model as typed);
 * - a redirect line must itself pass the output checks (a team cannot make the character swear);
 * - a team policy cannot take a built-in name or "default".
 */
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { CATEGORIES, type Category, FIXED_CATEGORIES } from "../detect/categories.ts";
import { detect } from "../detect/detector.ts";

export const ACTIONS = ["allow", "redact", "redirect", "block", "escalate"] as const;
export type PolicyAction = (typeof ACTIONS)[number];

const Action = Type.Union(ACTIONS.map((a) => Type.Literal(a)));
const Line = Type.String({ minLength: 1, maxLength: 300 });
const Term = Type.String({ minLength: 1, maxLength: 100 });
const Lines = Type.Array(Line, { minItems: 1, maxItems: 20 });

const CategorySetting = Type.Union([
  Action,
  Type.Object({ input: Type.Optional(Action), output: Type.Optional(Action), lines: Type.Optional(Lines) }, { additionalProperties: false }),
]);

/** A team policy's body (PUT /api/safety-policies/{name}); POST adds `name`. */
export const TeamPolicyBody = Type.Object(
  {
    description: Type.Optional(Type.String({ maxLength: 500 })),
    base: Type.Optional(Type.Union([Type.Literal("children_strict"), Type.Literal("children_standard")])),
    categories: Type.Optional(
      Type.Partial(Type.Object(Object.fromEntries(CATEGORIES.map((c) => [c, CategorySetting])) as Record<Category, typeof CategorySetting>), {
        additionalProperties: false,
      }),
    ),
    redirect_lines: Type.Optional(Type.Array(Line, { minItems: 1, maxItems: 50 })),
    blocked_terms: Type.Optional(Type.Array(Term, { maxItems: 500 })),
    allowed_terms: Type.Optional(Type.Array(Term, { maxItems: 500 })),
    check_output: Type.Optional(Type.Boolean()),
    strict_after: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type TeamPolicyBody = Static<typeof TeamPolicyBody>;

/** POST /api/safety-policies: the body plus its name. */
export const TeamPolicyCreate = Type.Composite(
  [Type.Object({ name: Type.String({ minLength: 1, maxLength: 64, pattern: "^[a-z0-9][a-z0-9_.-]*$" }) }), TeamPolicyBody],
  { additionalProperties: false },
);
export type TeamPolicyCreate = Static<typeof TeamPolicyCreate>;

/** Names no team policy may take. */
export const RESERVED_NAMES = new Set(["default", "children_strict", "children_standard", "strict", "standard", "teen", "teens"]);

const bodyCheck = TypeCompiler.Compile(TeamPolicyBody);
const createCheck = TypeCompiler.Compile(TeamPolicyCreate);

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Validates a team policy body; the error names the field ("categories.self_harm").
 * @example validateTeamPolicy({ categories: { violence: "allow" } }) // { ok: true, value: ... }
 */
export function validateTeamPolicy(value: unknown): Checked<TeamPolicyBody> {
  if (!bodyCheck.Check(value)) return { ok: false, error: schemaError(bodyCheck.Errors(value).First()) };
  const semantic = semanticError(value);
  return semantic ? { ok: false, error: semantic } : { ok: true, value };
}

/** Validates a POST body (a team policy with its name). */
export function validateTeamPolicyCreate(value: unknown): Checked<TeamPolicyCreate> {
  if (!createCheck.Check(value)) return { ok: false, error: schemaError(createCheck.Errors(value).First()) };
  if (RESERVED_NAMES.has(value.name)) return { ok: false, error: `field "name": "${value.name}" is a built-in policy name; choose another` };
  const semantic = semanticError(value);
  return semantic ? { ok: false, error: semantic } : { ok: true, value };
}

interface FirstError {
  type: ValueErrorType;
  path: string;
  message: string;
  schema: TSchema;
}

/** The name rule in words, as an answer says it. */
const POLICY_NAME_RULE = 'must be a policy name of 1 to 64 lower-case letters, digits, "_", "." or "-", starting with a letter or digit';

function schemaError(first: FirstError | undefined): string {
  if (!first) return "the policy is not valid";
  const path = first.path.split("/").filter(Boolean).join(".") || "policy";
  if (first.type === ValueErrorType.ObjectAdditionalProperties) {
    const known = path.startsWith("categories.") ? ` (categories: ${CATEGORIES.join(", ")})` : "";
    return `unknown field "${path}"${known}`;
  }
  if (first.type === ValueErrorType.ObjectRequiredProperty) return `field "${path}" is required`;
  if (/^categories\.[a-z_]+(\.(input|output))?$/.test(path)) return `field "${path}" must be one of ${ACTIONS.join(", ")}`;
  if (path === "base") return `field "base" must be "children_strict" or "children_standard"`;
  // Never a schema's own message ("expected string to match '^…$'"): the rule in words.
  if (path === "name") return `field "name" ${POLICY_NAME_RULE}`;
  if (first.type === ValueErrorType.StringPattern) return `field "${path}" is not in the documented form`;
  return `field "${path}" is not valid: ${first.message.toLowerCase()}`;
}

function semanticError(body: TeamPolicyBody): string | null {
  for (const [category, setting] of Object.entries(body.categories ?? {}) as [Category, NonNullable<TeamPolicyBody["categories"]>[Category]][]) {
    if (setting === undefined) continue;
    const actions = typeof setting === "string" ? { both: setting } : { input: setting.input, output: setting.output };
    for (const [dir, action] of Object.entries(actions)) {
      if (action === undefined) continue;
      const field = `categories.${category}${dir === "both" ? "" : `.${dir}`}`;
      if (FIXED_CATEGORIES.has(category) && action !== "escalate")
        return `field "${field}": ${category} is always escalated with a calm reply that points to a trusted adult; only "escalate" is accepted`;
      if (action === "redact" && category !== "personal_info") return `field "${field}": "redact" applies only to personal_info`;
      if (category === "personal_info" && action === "allow")
        return `field "${field}": personal information cannot be allowed through; use redact, redirect, block or escalate`;
    }
    if (typeof setting !== "string" && setting.lines) {
      if (FIXED_CATEGORIES.has(category)) return `field "categories.${category}.lines": the reply for ${category} is fixed and cannot be changed`;
      const bad = badLine(setting.lines);
      if (bad)
        return `field "categories.${category}.lines[${bad.index}]" would itself be blocked (${bad.category}); write a line that passes the output checks`;
    }
  }
  const bad = badLine(body.redirect_lines ?? []);
  if (bad) return `field "redirect_lines[${bad.index}]" would itself be blocked (${bad.category}); write a line that passes the output checks`;
  return null;
}

function badLine(lines: readonly string[]): { index: number; category: Category } | null {
  for (let i = 0; i < lines.length; i++) {
    const found = detect(lines[i] as string, "output").find((f) => f.category !== "personal_info");
    if (found) return { index: i, category: found.category };
  }
  return null;
}

/**
 * The built-in policies. `children_strict` is the default ("default", an empty name and no name all mean it):
 * for young children, mild findings count and every category but personal information is answered with a
 * redirect line. `children_standard` is looser, for teens: mild findings (mild swearing, ambiguous words,
 * play-fighting in games) pass, and a child's own swearing reaches the model (the model's never reaches the child).
 */
import { CATEGORIES, type Category } from "../detect/categories.ts";
import { DEFAULT_LINES, FALLBACK_LINES, FIXED_LINES, OUTPUT_LINES } from "./lines.ts";
import type { PolicyAction, TeamPolicyBody } from "./model.ts";

/** A policy with every setting resolved: what a compiled checker is built from. */
export interface PolicySpec {
  name: string;
  description: string;
  builtin: boolean;
  /** Mild findings count (young children), not only clear and severe ones. */
  strict: boolean;
  /** Model sentences are checked (text is held until its sentence passes). */
  checkOutput: boolean;
  /** Boundary-testing attempts in one session before it moves to the stricter stance. */
  strictAfter: number;
  actions: Record<Category, { input: PolicyAction; output: PolicyAction }>;
  lines: Record<Category, readonly string[]>;
  /** Lines that replace a model sentence, where they differ from `lines`. */
  outputLines: Partial<Record<Category, readonly string[]>>;
  fallbackLines: readonly string[];
  blockedTerms: readonly string[];
  allowedTerms: readonly string[];
}

export const DEFAULT_POLICY = "children_strict";

const both = (input: PolicyAction, output: PolicyAction = input): { input: PolicyAction; output: PolicyAction } => ({ input, output });

const BASE_LINES = { ...DEFAULT_LINES, ...FIXED_LINES } as Record<Category, readonly string[]>;

const STRICT: PolicySpec = {
  name: "children_strict",
  description:
    "Strict policy for young children (the default): every category is intercepted, mild words included; personal information is redacted; model " +
    "output is checked sentence by sentence.",
  builtin: true,
  strict: true,
  checkOutput: true,
  strictAfter: 3,
  actions: {
    self_harm: both("escalate"),
    abuse: both("escalate"),
    stranger_danger: both("escalate", "redirect"),
    sexual: both("redirect"),
    weapons: both("redirect"),
    violence: both("redirect", "block"),
    drugs: both("redirect", "block"),
    hate: both("redirect", "block"),
    bullying: both("redirect", "block"),
    jailbreak: both("redirect", "redirect"),
    profanity: both("redirect", "block"),
    personal_info: both("redact"),
    custom: both("redirect", "block"),
  },
  lines: BASE_LINES,
  outputLines: OUTPUT_LINES,
  fallbackLines: FALLBACK_LINES,
  blockedTerms: [],
  allowedTerms: [],
};

const STANDARD: PolicySpec = {
  ...STRICT,
  name: "children_standard",
  description:
    "Looser policy for teens: mild words and play-fighting pass, a teen's own swearing reaches the model; everything else is intercepted as in " +
    "children_strict and model output is still checked.",
  strict: false,
  strictAfter: 4,
  actions: { ...STRICT.actions, profanity: both("allow", "block"), violence: both("redirect", "block") },
};

export const BUILTIN_POLICIES: Readonly<Record<string, PolicySpec>> = { children_strict: STRICT, children_standard: STANDARD };

/** The built-in policy a configuration name refers to ("default", "" and null mean the strictest), or null. */
export function builtinSpec(name: string | null | undefined): PolicySpec | null {
  const key = name === undefined || name === null || name === "" || name === "default" ? DEFAULT_POLICY : name;
  return Object.hasOwn(BUILTIN_POLICIES, key) ? (BUILTIN_POLICIES[key] as PolicySpec) : null;
}

/**
 * Resolves a validated team policy over its base into a full spec (fixed categories stay fixed).
 * @example teamSpec("quiet", { categories: { violence: "allow" } }).actions.violence // { input: "allow", output: "allow" }
 */
export function teamSpec(name: string, body: TeamPolicyBody): PolicySpec {
  const base = BUILTIN_POLICIES[body.base ?? DEFAULT_POLICY] as PolicySpec;
  const actions = { ...base.actions };
  const lines: Record<Category, readonly string[]> = { ...base.lines };
  const outputLines: Partial<Record<Category, readonly string[]>> = { ...base.outputLines };
  if (body.redirect_lines) {
    for (const c of CATEGORIES) {
      if (c === "self_harm" || c === "abuse") continue;
      lines[c] = body.redirect_lines;
      delete outputLines[c];
    }
  }
  for (const c of CATEGORIES) {
    const setting = body.categories?.[c];
    if (setting === undefined || c === "self_harm" || c === "abuse") continue;
    if (typeof setting === "string") actions[c] = both(setting);
    else {
      actions[c] = { input: setting.input ?? actions[c].input, output: setting.output ?? actions[c].output };
      if (setting.lines) {
        lines[c] = setting.lines;
        delete outputLines[c];
      }
    }
  }
  return {
    ...base,
    name,
    description: body.description ?? `Team policy based on ${base.name}.`,
    builtin: false,
    checkOutput: body.check_output ?? base.checkOutput,
    strictAfter: body.strict_after ?? base.strictAfter,
    actions,
    lines,
    outputLines,
    blockedTerms: body.blocked_terms ?? [],
    allowedTerms: body.allowed_terms ?? [],
  };
}

/**
 * Runs every rule of one direction over the views of a text and reports what it found: a list of findings
 * (category, rule id, tier), never the matched words. Policies decide what to do with them (policy/).
 *
 * Rules it keeps:
 * - a text is normalised once; rules, obscenity's matcher and decoded hidden text all read those views;
 * - a team's allowed terms are masked out before the rules run, except for self-harm and abuse, which no
 *   policy can switch off; a team's blocked terms are matched on the canonical view as `custom`;
 * - only the most serious finding per category is kept, in CATEGORIES order;
 * - when no rule fires, the learned classifier (model/) may add one finding, only above its trained threshold.
 */
import { CATEGORIES, type Category, type Direction, FIXED_CATEGORIES, type Finding, type Rule, type Tier } from "./categories.ts";
import { decodeHidden } from "./encoded.ts";
import { ADVISORY_RULES, classify } from "./model/classifier.ts";
import { views, visible } from "./normalize.ts";
import { mayBeObscene } from "./obscenity-gate.ts";
import { RuleIndex } from "./prefilter.ts";
import { DRUG_RULES } from "./rules/drugs.ts";
import { HATE_RULES } from "./rules/hate.ts";
import { JAILBREAK_RULES } from "./rules/jailbreak.ts";
import { OUTPUT_TOPIC_RULES } from "./rules/output-topics.ts";
import { PHRASING_RULES } from "./rules/phrasings.ts";
import { obscenityFindings, PROFANITY_RULES } from "./rules/profanity.ts";
import { SELF_HARM_RULES } from "./rules/self-harm.ts";
import { SEXUAL_RULES } from "./rules/sexual.ts";
import { STRANGER_RULES } from "./rules/stranger.ts";
import { VIOLENCE_RULES } from "./rules/violence.ts";

/** Every built-in rule. */
export const RULES: readonly Rule[] = [
  ...SELF_HARM_RULES,
  ...SEXUAL_RULES,
  ...VIOLENCE_RULES,
  ...DRUG_RULES,
  ...HATE_RULES,
  ...PROFANITY_RULES,
  ...STRANGER_RULES,
  ...JAILBREAK_RULES,
  ...OUTPUT_TOPIC_RULES,
  ...PHRASING_RULES,
];

const BY_DIRECTION: Record<Direction, readonly Rule[]> = {
  input: RULES.filter((r) => r.on !== "output"),
  output: RULES.filter((r) => r.on !== "input"),
};

/** Which rules can possibly match a text, found in one pass (prefilter.ts); built on first use. */
const INDEX: Partial<Record<Direction, RuleIndex>> = {};
const index = (direction: Direction): RuleIndex => (INDEX[direction] ??= new RuleIndex(BY_DIRECTION[direction].map((r) => r.test)));

/** Set to false to run every rule and obscenity's matcher on every text (the tests compare both ways). */
export const prefilter = { enabled: true };

/** Team terms compiled once per policy. */
export interface TermMatchers {
  /** Matches a blocked term on the canonical view. */
  blocked: RegExp | null;
  /** Matches an allowed term on the canonical view (masked before the rules run). */
  allowed: RegExp | null;
}

export const NO_TERMS: TermMatchers = { blocked: null, allowed: null };

/**
 * Compiles team terms into matchers on the canonical view (each term is normalised the same way as the text).
 * @example compileTerms(["Kill Zone"], []).allowed?.test(" the kill zone level ") // true
 */
export function compileTerms(blocked: readonly string[], allowed: readonly string[]): TermMatchers {
  const build = (terms: readonly string[]): RegExp | null => {
    const words = terms.map((t) => views(t).canon.trim()).filter((t) => t.length > 0);
    if (words.length === 0) return null;
    const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, " ?"));
    return new RegExp(`\\b(?:${escaped.join("|")})\\b`, "g");
  };
  return { blocked: build(blocked), allowed: build(allowed) };
}

const RANK: Record<Tier, number> = { mild: 0, clear: 1, severe: 2 };

function runRules(direction: Direction, canon: string, clean: string, masked: string, fired: Finding[]): void {
  const rules = BY_DIRECTION[direction];
  const idx = index(direction);
  // Clean-view rules read another text than the one scanned, so they are never skipped (they have no anchors).
  const candidates = prefilter.enabled ? idx.candidates(canon) : null;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i] as Rule;
    if (candidates && !candidates.has(i) && rule.view !== "clean" && !idx.always.has(i)) continue;
    const target = rule.view === "clean" ? clean : FIXED_CATEGORIES.has(rule.category) ? canon : masked;
    if (!rule.test.test(target)) continue;
    if (rule.unless && rule.unless.test(target)) continue;
    if (rule.also && !rule.also.test(target)) continue;
    fired.push({ category: rule.category, rule: rule.id, tier: rule.tier });
  }
}

function keep(out: Map<Category, Finding>, finding: Finding): void {
  const had = out.get(finding.category);
  if (!had || RANK[finding.tier] > RANK[had.tier]) out.set(finding.category, finding);
}

/**
 * Finds what is unsafe in one text (a child's message or one model sentence).
 * @example detect("I wanna k1ll mysellf", "input") // [{ category: "self_harm", rule: "self_harm.lethal-self", tier: "severe" }]
 */
export function detect(text: string, direction: Direction, terms: TermMatchers = NO_TERMS, depth = 0): Finding[] {
  return run(text, direction, terms, depth, true);
}

/**
 * Every rule deciding alone (advisory ones too), without the classifier: the detector as it was before rules
 * became advisory, which the bench reports beside today's.
 * @example detectRulesOnly("how do I make a bomb", "input")[0]?.category // "weapons"
 */
export function detectRulesOnly(text: string, direction: Direction, terms: TermMatchers = NO_TERMS): Finding[] {
  return run(text, direction, terms, 0, false);
}

/**
 * Every rule that matched a text (advisory ones included), in rule order: what the classifier reads as features.
 * @example ruleHits("how do I make a bomb", "input").map((f) => f.rule) // ["weapons.make-explosive", ...]
 */
export function ruleHits(text: string, direction: Direction, terms: TermMatchers = NO_TERMS): Finding[] {
  const v = views(text);
  const masked = terms.allowed ? v.canon.replace(terms.allowed, " ") : v.canon;
  return hits(direction, v, masked, terms);
}

function hits(direction: Direction, v: { canon: string; clean: string }, masked: string, terms: TermMatchers): Finding[] {
  const fired: Finding[] = [];
  runRules(direction, v.canon, v.clean, masked, fired);
  const maskedClean = terms.allowed ? masked : v.clean;
  // obscenity runs once per distinct view, and only where its words can be (obscenity-gate.ts): both are exact.
  const first = obscene(maskedClean);
  fired.push(...first);
  if (v.canon !== maskedClean) fired.push(...(masked === maskedClean ? first : obscene(masked)));
  return fired;
}

function obscene(text: string): Finding[] {
  return !prefilter.enabled || mayBeObscene(text) ? obscenityFindings(text) : [];
}

function run(text: string, direction: Direction, terms: TermMatchers, depth: number, useModel: boolean): Finding[] {
  // A model sentence's tokens are kept for the joint check with the next one (normalize.ts).
  const v = views(text, direction === "output" && depth === 0);
  const masked = terms.allowed ? v.canon.replace(terms.allowed, " ") : v.canon;
  const out = new Map<Category, Finding>();
  const fired = hits(direction, v, masked, terms);
  // A rule decides alone only when it matched no benign line the model was trained on; the others are evidence
  // the classifier weighs (ADVISORY_RULES, written by the trainer).
  for (const f of fired) if (!useModel || !ADVISORY_RULES.has(f.rule)) keep(out, f);
  if (terms.blocked) {
    terms.blocked.lastIndex = 0;
    if (terms.blocked.test(v.canon)) keep(out, { category: "custom", rule: "custom.blocked-term", tier: "clear" });
  }
  // The classifier adds its finding beside the deciding rules': it widens recall, and where a deciding rule fired it
  // can name the category the line is really about ("a blade until it bleeds" is self-harm, not violence).
  if (useModel) {
    const guess = classify(
      masked,
      direction,
      fired.map((f) => f.rule),
    );
    if (guess) keep(out, { category: guess.category, rule: `model.${guess.category}`, tier: guess.sure ? "severe" : "clear" });
  }
  if (depth === 0) {
    for (const hidden of decodeHidden(visible(text))) {
      if (direction === "input") keep(out, { category: "jailbreak", rule: "jailbreak.encoded-text", tier: "clear" });
      for (const f of run(hidden, direction, terms, depth + 1, useModel)) keep(out, f);
    }
  }
  return CATEGORIES.flatMap((c) => {
    const f = out.get(c);
    return f ? [f] : [];
  });
}

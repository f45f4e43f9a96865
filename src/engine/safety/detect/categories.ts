/**
 * The categories a policy acts on and the shape of a detection rule.
 *
 * A rule reads the canonical view of a text (see normalize.ts): lowercase words separated by single spaces,
 * with a space at both ends. Rules are written in a small dialect compiled by `pattern()`:
 *   - a space between words also matches no space ("kill myself" matches "killmyself");
 *   - " ~ " stands for up to three other words ("kill ~ myself" matches "kill my stupid self"), " ~~ " for up to six,
 *     " ~~~ " for up to twelve (a whole short message: "a man on youtube ... message him on telegram");
 *   - a run of any words must end each word with \\b ("(?:[a-z]+\\b )"): spaces become optional, and without the
 *     \\b one word could be split many ways (slow backtracking).
 */
import { addVocabulary } from "./normalize.ts";

/** Every category, in the order a reply line is chosen when several fire (most serious first). */
export const CATEGORIES = [
  "self_harm",
  "abuse",
  "stranger_danger",
  "sexual",
  "weapons",
  "violence",
  "drugs",
  "hate",
  "bullying",
  "jailbreak",
  "profanity",
  "personal_info",
  "custom",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Categories whose handling no policy can change: a calm reply pointing to a trusted adult, and an incident. */
export const FIXED_CATEGORIES: ReadonlySet<Category> = new Set(["self_harm", "abuse"]);

/** One line about what each category covers (shown in the README and to developers listing policies). */
export const CATEGORY_DESCRIPTIONS: Record<Category, string> = {
  self_harm: "suicide, self-harm, eating-disorder talk, euphemisms (unalive, kms) and dangerous challenges",
  abuse: "a child disclosing sexual or physical abuse or neglect",
  stranger_danger: "meeting up, secrets from parents, moving to another app, photos, camera, gifts, grooming",
  sexual: "sexual words, requests and content",
  weapons: "making, getting or carrying real weapons and explosives",
  violence: "threats and intent to hurt people or animals, gore, mass violence",
  drugs: "drugs, alcohol, tobacco and vaping, and how to get or use them",
  hate: "slurs and hostility towards groups",
  bullying: "insults and threats at a person, being bullied, bullying others",
  jailbreak: "instruction overrides, personas, fake system messages, age or authority claims, fiction wrappers, encoded text, prompt extraction",
  profanity: "swearing (strong, and mild words under the strict policy)",
  personal_info: "phone, e-mail, home address, postcode, school, full name, birthday, passwords, card numbers, social handles",
  custom: "terms a team policy blocks",
};

/** Where a text comes from: what the child typed, or a sentence the model wrote. */
export type Direction = "input" | "output";

/**
 * How sure a rule is. `mild` findings count only under the strict policy or a session on a stricter stance
 * (ambiguous words, mild swearing); `clear` and `severe` always count.
 */
export type Tier = "mild" | "clear" | "severe";

export interface Rule {
  /** Stable id, used in tests and the bench (never sent to the client). */
  id: string;
  category: Category;
  on: Direction | "both";
  tier: Tier;
  /** Tested on the canonical view (or the cleaned text when `view` is "clean"). */
  test: RegExp;
  /** The finding is dropped when this also matches (innocent contexts). */
  unless?: RegExp;
  /** The finding needs this to match as well (two signals together). */
  also?: RegExp;
  view?: "canon" | "clean";
}

/** What a detector found: which rule, never the matched text. */
export interface Finding {
  category: Category;
  rule: string;
  tier: Tier;
}

const GAP = "(?:[a-z0-9]+ ){0,3}";
const LONG_GAP = "(?:[a-z0-9]+ ){0,6}";
const LONGEST_GAP = "(?:[a-z0-9]+ ){0,12}";

/**
 * Compiles the rule dialect into a RegExp on the canonical view and teaches the normaliser its words.
 * @example pattern("kill ~ myself").test(" i will kill my stupid self ") // true
 */
export function pattern(source: string): RegExp {
  addVocabulary(source.match(/[a-z]{2,}/g) ?? []);
  const body = source
    .split(" ~~~ ")
    .map((longest) =>
      longest
        .split(" ~~ ")
        .map((long) =>
          long
            .split(" ~ ")
            .map((part) => part.replace(/ /g, " ?"))
            .join(` ${GAP}`),
        )
        .join(` ${LONG_GAP}`),
    )
    .join(` ${LONGEST_GAP}`);
  return new RegExp(`\\b(?:${body})\\b`);
}

/**
 * Alternatives of a rule, one a line in the source (a change is a one-line diff): joined with "|".
 * @example alt("kill myself", "end my life") // "kill myself|end my life"
 */
export function alt(...alternatives: string[]): string {
  return alternatives.join("|");
}

/** Shorthand for declaring a rule in a category file. */
export function rule(category: Category, id: string, on: Rule["on"], tier: Tier, source: string, extra: { unless?: string; also?: string } = {}): Rule {
  return {
    id: `${category}.${id}`,
    category,
    on,
    tier,
    test: pattern(source),
    ...(extra.unless ? { unless: pattern(extra.unless) } : {}),
    ...(extra.also ? { also: pattern(extra.also) } : {}),
  };
}

/** A rule on the cleaned text (keeps punctuation): for fake system messages and markup. */
export function cleanRule(category: Category, id: string, on: Rule["on"], tier: Tier, re: RegExp): Rule {
  return { id: `${category}.${id}`, category, on, tier, test: re, view: "clean" };
}

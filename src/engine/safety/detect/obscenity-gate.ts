/**
 * A one-pass question put before obscenity's matcher (rules/profanity.ts): can any dataset word be in this text
 * at all? obscenity's `hasMatch` transforms the text twice (once for its whitelist, once for the words) and then
 * runs one regular expression per dataset word (~70); most sentences hold none. Here the text is transformed
 * once, by obscenity's own transformers, and one regular expression, the union of the words' own expressions,
 * is run over it.
 *
 * Rules it keeps:
 * - exact, never a guess: a dataset word matches the transformed text exactly when the union does (the words'
 *   expressions have no backreferences, so "some alternative matches" is "some word matches"); the whitelist can
 *   only take a match away, so "no word" means obscenity finds nothing and `obscenityFindings` returns [];
 * - it reads obscenity's matcher through the same construction profanity.ts uses (dataset, recommended
 *   transformers); when a release of obscenity no longer has the parts it reads, every text "may match" and the
 *   matcher runs as before. test/safety/obscenity-gate.test.ts holds it to `hasMatch` on every corpus line.
 */
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from "obscenity";

/** The parts of obscenity's matcher (0.4.x) this reads; not in its typings, so checked at load. */
interface MatcherInside {
  blacklistedTerms: { regExp: RegExp }[];
  blacklistMatcherTransformers: unknown;
  applyTransformers(input: string, transformers: unknown): [number[], string];
}

function build(): ((text: string) => boolean) | null {
  const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers }) as unknown as Partial<MatcherInside>;
  const terms = matcher.blacklistedTerms;
  if (!Array.isArray(terms) || typeof matcher.applyTransformers !== "function" || matcher.blacklistMatcherTransformers === undefined) return null;
  const sources = terms.map((t) => t.regExp);
  // Flags other than "g" and "s" (or a backreference) would make the union mean something else: then no gate.
  if (sources.length === 0 || sources.some((re) => !(re instanceof RegExp) || re.flags.replace(/[gs]/g, "") !== "" || /\\[1-9k]/.test(re.source))) return null;
  const dotAll = sources.every((re) => re.dotAll);
  if (!dotAll && sources.some((re) => re.dotAll)) return null;
  const union = new RegExp(sources.map((re) => `(?:${re.source})`).join("|"), dotAll ? "s" : "");
  const inside = matcher as MatcherInside;
  return (text) => union.test(inside.applyTransformers(text, inside.blacklistMatcherTransformers)[1]);
}

const gate = build();

/** True when the gate is in use (obscenity still has the parts it reads). */
export const obscenityGateActive = gate !== null;

/**
 * False only when obscenity's matcher cannot find a dataset word in `text` (then `obscenityFindings` is []).
 * @example mayBeObscene(" a lovely day for a story ") // false
 */
export function mayBeObscene(text: string): boolean {
  return gate === null || gate(text);
}

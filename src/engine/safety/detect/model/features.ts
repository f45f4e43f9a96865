/**
 * The features the learned classifier reads, shared by the trainer (scripts/train-safety-model.ts) and the
 * detector so both see exactly the same thing. Input: the canonical view of the text (normalize.ts: look-alikes
 * folded, leetspeak decoded, chat spellings expanded) and the ids of the rules that matched it.
 *
 *   d <direction>        one model serves a child's inputs and the model's sentences
 *   w, b, t              word unigrams, bigrams and trigrams
 *   c <gram>             character 4-grams of each word, with its edges (<unalive> -> "<una", "nali", ...): words
 *                        never seen whole ("unalivin", "grandmas") and misspellings still score
 *   k <CONCEPT>, kk <A B> concept classes of the words (concepts.ts) and every pair of them: "an adult, touching and
 *                        secrecy" whichever words a child picked
 *   n <word>             a word after a negation ("never", "not", "dont"...), so "i don't want to die" and "i want
 *                        to die" differ
 *   s <CONCEPT>          a concept in a message about oneself (i, me, my): "I hurt" differs from "he hurt"
 *   r <rule>, rc <cat>   a rule that matched and its category: rules are evidence the model weighs, not verdicts
 */
import type { Direction } from "../categories.ts";
import { isKnownWord } from "../normalize.ts";
import { concepts } from "./concepts.ts";

const NEGATIONS = new Set([
  "not",
  "never",
  "dont",
  "don't",
  "no",
  "cant",
  "can't",
  "wont",
  "won't",
  "didnt",
  "didn't",
  "isnt",
  "isn't",
  "nobody",
  "nothing",
  "stop",
]);
const SELF = new Set(["i", "im", "me", "my", "myself", "mine"]);

/**
 * A word's own features, `w` then its `c` grams, kept once built for the words the normaliser already knows (the
 * rules' and the chat table's words): the same strings, without building them again, and no other word a child
 * typed is kept.
 */
const OWN = new Map<string, readonly string[]>();
const MAX_OWN = 20_000;

function ownFeatures(w: string): readonly string[] {
  const known = OWN.get(w);
  if (known !== undefined) return known;
  const own = [`w ${w}`];
  const padded = `<${w}>`;
  for (let j = 0; j + 4 <= padded.length; j++) own.push(`c ${padded.slice(j, j + 4)}`);
  if (OWN.size < MAX_OWN && isKnownWord(w)) OWN.set(w, own);
  return own;
}

/**
 * Distinct feature strings of one canonical text.
 * @example features(" i want to die ", "input", []) // ["d input", "w i", "b i want", "c <i>", "t i want to", ...]
 */
export function features(canon: string, direction: Direction, rules: readonly string[] = []): string[] {
  const words = canon
    .trim()
    .split(" ")
    .filter((w) => w !== "");
  const out = new Set<string>([`d ${direction}`]);
  let self = false;
  let negated = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const own = ownFeatures(w);
    out.add(own[0] as string);
    if (i + 1 < words.length) out.add(`b ${w} ${words[i + 1]}`);
    for (let j = 1; j < own.length; j++) out.add(own[j] as string);
    if (i + 2 < words.length) out.add(`t ${w} ${words[i + 1]} ${words[i + 2]}`);
    if (negated > 0) {
      out.add(`n ${w}`);
      negated--;
    }
    if (NEGATIONS.has(w)) negated = 3;
    if (SELF.has(w)) self = true;
  }
  const cs = concepts(words);
  for (let i = 0; i < cs.length; i++) {
    out.add(`k ${cs[i]}`);
    if (self) out.add(`s ${cs[i]}`);
    for (let j = i + 1; j < cs.length; j++) out.add(`kk ${[cs[i], cs[j]].sort().join(" ")}`);
  }
  for (const r of rules) {
    out.add(`r ${r}`);
    out.add(`rc ${r.slice(0, r.indexOf("."))}`);
  }
  return [...out];
}

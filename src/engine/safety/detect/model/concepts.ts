/**
 * Concept classes for the classifier: each canonical word maps to the ideas it carries ("stab", "punch", "slap" are
 * all HARM). The classifier sees the concepts of a message and every pair of them, so it learns that an adult,
 * touching and secrecy together mean abuse whichever words a child picked, and a sentence it never saw can still
 * score. Hand-made and readable: the classes live in data/concepts.tsv (CONCEPT<TAB>word, one a line); add a
 * word to a class, retrain.
 */
import conceptData from "../data/concepts.tsv" with { type: "text" };

const WORD_CONCEPTS = new Map<string, string[]>();
for (const line of conceptData.split("\n")) {
  const [concept, word] = line.split("\t");
  if (!concept || !word || concept.startsWith("#")) continue;
  WORD_CONCEPTS.set(word, [...(WORD_CONCEPTS.get(word) ?? []), concept]);
}

/** The concepts of a list of canonical words, in order of first appearance. */
export function concepts(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const w of words) for (const c of WORD_CONCEPTS.get(w) ?? []) out.add(c);
  return [...out];
}

/**
 * The concepts that must be present for the classifier to name a category: it may weigh any feature, but it may
 * not call a text "violence" that has no harm, weapon or death word in it (a precision gate on unseen phrasing).
 */
export const EVIDENCE: Record<string, readonly string[]> = {
  self_harm: ["DEATH", "HARM", "METHOD", "EAT", "HOPELESS"],
  abuse: ["ADULT", "TOUCH", "SECRET", "HARM"],
  stranger_danger: ["ONLINE", "CONTACT", "SECRET"],
  sexual: ["SEX", "TOUCH"],
  weapons: ["WEAPON"],
  violence: ["HARM", "WEAPON", "DEATH"],
  drugs: ["DRUG", "METHOD"],
  hate: ["GROUP", "DEROG"],
  bullying: ["INSULT", "MEAN", "DEROG"],
  jailbreak: ["JAIL"],
  profanity: ["SWEAR"],
  personal_info: ["PII", "CONTACT"],
};

/** True when the words carry at least one concept that `category` needs as evidence. */
export function hasEvidence(category: string, words: readonly string[]): boolean {
  const needed = EVIDENCE[category];
  if (!needed) return false;
  const present = concepts(words);
  return needed.some((c) => present.includes(c));
}

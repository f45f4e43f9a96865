/**
 * Character classes and word lists the sentence chunker decides with. Kept apart from the scanner so the
 * rules can be read (and extended) without reading the state machine.
 */

/** Ends a sentence in Latin scripts, but only when followed by whitespace or the end of the reply. */
export const LATIN_TERMINALS = new Set([".", "!", "?", "…"]);
/** Ends a sentence in CJK text with no space needed after it. */
export const CJK_TERMINALS = new Set(["。", "！", "？", "．"]);
/** Closing quotes and brackets that belong to the sentence they follow: `He said "hi."` */
export const CLOSERS = new Set(['"', "'", "”", "’", "»", ")", "]", "}", "」", "』", "）", "】", "》"]);
/** Clause separators that may end the early first clause when followed by whitespace. */
export const LATIN_CLAUSE_MARKS = new Set([",", ";", ":", "—", "–"]);
/** CJK clause separators (no space needed after them). */
export const CJK_CLAUSE_MARKS = new Set(["，", "、", "；", "："]);

/**
 * Words whose trailing full stop is not the end of a sentence. Lowercase, without the final dot.
 * "No." and "etc." are left out on purpose: children's dialogue ends sentences with them far more often.
 */
export const ABBREVIATIONS = new Set(["mr", "mrs", "ms", "mx", "dr", "prof", "sr", "jr", "st", "mt", "vs", "e.g", "i.e", "cf", "approx", "ca"]);

const WHITESPACE = /\s/;
const LOWERCASE = /\p{Ll}/u;
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** True for any whitespace character, including newlines. */
export function isSpace(ch: string): boolean {
  return WHITESPACE.test(ch);
}

/** True for a lowercase letter in any script: a sentence does not start with one. */
export function isLower(ch: string): boolean {
  return LOWERCASE.test(ch);
}

/** Counts words; each CJK character counts as half a word, so about six characters make a short clause. */
export function countWords(text: string): number {
  let cjk = 0;
  for (const ch of text) if (CJK.test(ch)) cjk++;
  const latin = text.match(WORD)?.filter((w) => !CJK.test(w)).length ?? 0;
  return latin + Math.floor(cjk / 2);
}

/** The word (letters and inner dots) that ends at `end` (exclusive), lowercase, for the abbreviation check. */
export function wordBefore(text: string, end: number): string {
  let start = end;
  while (start > 0 && /[\p{L}.]/u.test(text[start - 1] as string)) start--;
  return text.slice(start, end).replace(/^\.+/, "").toLowerCase();
}

/**
 * Text as flite can read it. Flite's front end only knows ASCII English: a curly apostrophe makes it spell
 * "don’t" out byte by byte, and emoji come out as noise. Language models write exactly those characters, so
 * every sentence is folded to plain ASCII first.
 */

const REPLACEMENTS: [RegExp, string][] = [
  [/[\u2018\u2019\u201a\u201b\u2032\u02bc]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"'],
  [/[\u2013\u2014\u2015\u2212]/g, ", "],
  [/\u2026/g, "..."],
  [/[\u00a0\u2000-\u200b\u202f\u205f\u3000]/g, " "],
];

/**
 * Folds `text` to the ASCII flite reads well: typographic quotes and dashes to plain ones, accents dropped,
 * emoji and other scripts removed, spaces collapsed.
 * @example normalizeForFlite("Don’t worry — it’s café time! 🦉") // "Don't worry, it's cafe time!"
 */
export function normalizeForFlite(text: string): string {
  let out = text;
  for (const [pattern, replacement] of REPLACEMENTS) out = out.replace(pattern, replacement);
  out = out.normalize("NFKD").replace(/\p{M}/gu, "");
  out = out.replace(/[^\x20-\x7e\n\t]/g, " ");
  return out
    .replace(/\s+/g, " ")
    .replace(/ ([,.!?;:])/g, "$1")
    .replace(/,\s*,/g, ",")
    .trim();
}

/** True when the text has something to pronounce (a letter or a digit). */
export function isSpeakable(text: string): boolean {
  return /[A-Za-z0-9]/.test(text);
}

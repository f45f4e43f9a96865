/**
 * Word handling for the local engine: normalising the child's text, and deciding what may be repeated back.
 * The engine only ever echoes short, plain, harmless words (a name, a favourite thing); anything else is
 * answered without quoting it, so a child cannot make the character say something unkind.
 */

/** Words that make the engine steer away instead of answering or echoing. */
const UNSAFE = [
  "kill",
  "killing",
  "gun",
  "guns",
  "knife",
  "knives",
  "blood",
  "bloody",
  "weapon",
  "weapons",
  "bomb",
  "bombs",
  "murder",
  "suicide",
  "drug",
  "drugs",
  "beer",
  "wine",
  "vodka",
  "alcohol",
  "cigarette",
  "cigarettes",
  "vape",
  "sex",
  "sexy",
  "naked",
  "porn",
  "stupid",
  "idiot",
  "damn",
  "hell",
  "shit",
  "fuck",
  "crap",
  "bitch",
];
const UNSAFE_PATTERN = new RegExp(`\\b(?:${UNSAFE.join("|")})\\b`, "i");

/** Lowercases, straightens quotes and squeezes spaces so patterns stay simple. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();
}

/** True when `text` contains a word the character must not talk about or repeat. */
export function isUnsafe(text: string): boolean {
  return UNSAFE_PATTERN.test(text);
}

/** True when `text` contains `word` as a whole word (a trailing "s" allowed). */
export function hasWord(text: string, word: string): boolean {
  return new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}s?\\b`).test(text);
}

/**
 * A short, plain version of `text` that is safe to say back, or null.
 * @example safeEcho("  blue!! ") === "blue"
 */
export function safeEcho(text: string, maxWords = 3): string | null {
  const cleaned = text
    .replace(/[^\p{L}\p{N}' -]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!cleaned || cleaned.length > 30 || cleaned.split(" ").length > maxWords || isUnsafe(cleaned)) return null;
  return cleaned;
}

/** "mia" -> "Mia"; "mary ann" -> "Mary Ann". */
export function capitalize(text: string): string {
  return text.replace(/(^|[\s-])(\p{L})/gu, (_m, sep: string, letter: string) => sep + letter.toUpperCase());
}

/** Strips a leading article: "a dragon" -> "dragon". */
export function withoutArticle(text: string): string {
  return text.replace(/^(?:a|an|the|some|my|your)\s+/i, "");
}

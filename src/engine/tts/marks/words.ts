/**
 * The words of a sentence as captions show them (the text's own characters, punctuation attached) and as a
 * voice says them (letters only, numbers spelled out), for aligning with phones and for estimating timings.
 */
import { normalizeForFlite } from "../flite/normalize-text.ts";

export interface Word {
  /** As written in the text. */
  text: string;
  /** As spoken, lower-case letters only ("25" -> "twentyfive"); never empty. */
  spoken: string;
}

const ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const TEENS = ["thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** Abbreviations flite reads as words. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  dr: "doctor",
  mr: "mister",
  mrs: "missus",
  ms: "miz",
  st: "saint",
  prof: "professor",
  etc: "etcetera",
};

/** English words for a whole number below a million, run together ("twentyfive"). */
function numberWords(n: number): string {
  if (n <= 12) return ONES[n];
  if (n < 20) return TEENS[n - 13];
  if (n < 100) return TENS[Math.floor(n / 10)] + (n % 10 ? ONES[n % 10] : "");
  if (n < 1000) return `${ONES[Math.floor(n / 100)]}hundred${n % 100 ? numberWords(n % 100) : ""}`;
  return `${numberWords(Math.floor(n / 1000))}thousand${n % 1000 ? numberWords(n % 1000) : ""}`;
}

/**
 * A token's spoken letters: folded as flite folds it, digits spelled out (long digit strings one by one),
 * symbols that are read aloud named.
 * @example spokenLetters("25!") // "twentyfive"; spokenLetters("Don’t") // "dont"
 */
export function spokenLetters(token: string): string {
  const folded = normalizeForFlite(token).toLowerCase().replace(/&/g, "and").replace(/%/g, "percent").replace(/\$/g, "dollars");
  const letters = folded
    .replace(/\d+/g, (digits) => (digits.length <= 6 ? numberWords(Number(digits)) : [...digits].map((d) => ONES[Number(d)]).join("")))
    .replace(/[^a-z]/g, "");
  return ABBREVIATIONS[letters] ?? letters;
}

/**
 * The words of `text` that a voice says: tokens between spaces that hold a letter or a digit (a lone dash or
 * an emoji is not spoken and is not a word).
 * @example sentenceWords("Hi — it's 5 o'clock!").map((w) => w.text) // ["Hi", "it's", "5", "o'clock!"]
 */
export function sentenceWords(text: string): Word[] {
  const words: Word[] = [];
  for (const token of text.split(/\s+/)) {
    const spoken = spokenLetters(token);
    if (spoken !== "") words.push({ text: token, spoken });
  }
  return words;
}

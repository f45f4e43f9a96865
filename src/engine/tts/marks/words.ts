/**
 * The words of a sentence as captions show them and as a voice says them.
 *
 * Written words are the sentence's whitespace-separated tokens exactly as the turn's `text` events carry them
 * (markup, punctuation and emoji attached: "*love*", "a<b", "🦉"). Spoken words are the tokens of the text the
 * voice was handed (speakableText: markup gone) reduced to letters, numbers spelled out; they are what gets
 * timed. Each written word is read as zero or more spoken words: "*love*" as one, "a<b" as two ("a", "b"),
 * "**" or "🦉" as none.
 */
import { speakableText } from "../../speech/speakable.ts";
import { normalizeForFlite } from "../flite/normalize-text.ts";
import type { Span } from "./timeline.ts";

export interface Word {
  /** As written in the text the voice was handed. */
  text: string;
  /** As spoken, lower-case letters only ("25" -> "twentyfive"); never empty. */
  spoken: string;
}

/** A token of the sentence as written, and the spoken words it is read as (none for markup or an emoji). */
export interface WrittenWord {
  text: string;
  spoken: Word[];
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

/** Digits as flite reads them: a whole number below a million in words, longer strings digit by digit. */
function digitWords(digits: string): string {
  return digits.length <= 6 ? numberWords(Number(digits)) : [...digits].map((d) => ONES[Number(d)]).join("");
}

/**
 * A token's spoken letters: folded as flite folds it, numbers read as flite reads them ("3.5" "three point
 * five", "1,000" "one thousand", "$5.50" "five dollars fifty cents"), symbols that are read aloud named.
 * @example spokenLetters("25!") // "twentyfive"; spokenLetters("Don’t") // "dont"; spokenLetters("3.5") // "threepointfive"
 */
export function spokenLetters(token: string): string {
  const folded = normalizeForFlite(token)
    .toLowerCase()
    .replace(/(\d),(?=\d{3})/g, "$1")
    .replace(/\$(\d+)\.(\d\d)\b/g, "$1dollars$2cents")
    .replace(/\$(\d+(?:\.\d+)?)/g, "$1dollars")
    .replace(/&/g, "ampersand")
    .replace(/%/g, "percent")
    .replace(/\$/g, "dollars");
  const letters = folded
    .replace(/(\d+)\.(\d+)/g, (_, whole: string, part: string) => `${digitWords(whole)}point${[...part].map((d) => ONES[Number(d)]).join("")}`)
    .replace(/\d+/g, digitWords)
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

/**
 * The words of `written` (the sentence as the turn's text has it), each with the spoken words it is read as:
 * the text the voice is handed (speakableText: markup replaced by spaces) keeps every other character in
 * order, so each of its tokens is found in the written sentence character by character.
 * @example writtenWords("I *love* a<b 🦉").map((w) => w.spoken.length) // [1, 1, 2, 0]
 */
export function writtenWords(written: string): WrittenWord[] {
  const tokens = written.split(/\s+/).filter((token) => token !== "");
  const words: WrittenWord[] = tokens.map((text) => ({ text, spoken: [] }));
  const chars = tokens.flatMap((token, k) => [...token].map((char) => ({ char, word: k })));
  let at = 0;
  for (const piece of (speakableText(written) ?? "").split(" ")) {
    let home = -1;
    for (const char of piece) {
      while (at < chars.length && chars[at].char !== char) at++;
      // Not found: the speakable rule changed more than markup. Each token is then read on its own.
      if (at === chars.length) return tokens.map((text) => ({ text, spoken: sentenceWords(text) }));
      if (home < 0) home = chars[at].word;
      at++;
    }
    const spoken = spokenLetters(piece);
    if (home >= 0 && spoken !== "") words[home].spoken.push({ text: piece, spoken });
  }
  return words;
}

/** The spoken words of `words`, in order: the ones a voice's timings are for. */
export function spokenWords(words: readonly WrittenWord[]): Word[] {
  return words.flatMap((word) => word.spoken);
}

/**
 * The written words timed from their spoken words (`times[k]` is the k-th of spokenWords(words)): a word read
 * as several spans them all. A word read as nothing (markup, an emoji, a lone dash) takes no time of its own: it
 * shares the span of the spoken word before it, as punctuation shares its word's (the first spoken word's
 * when it comes before any); when nothing is spoken at all, every word spans `whole`.
 * @example placeWritten(writtenWords("Hi 🦉"), [{ start: 0.1, end: 0.4 }], whole) // Hi and 🦉 both 0.1-0.4
 */
export function placeWritten(words: readonly WrittenWord[], times: readonly Span[], whole: Span): (Span & { text: string })[] {
  let k = 0;
  const spans = words.map((word): Span | null => {
    if (word.spoken.length === 0) return null;
    const first = times[k];
    k += word.spoken.length;
    return { start: first.start, end: times[k - 1].end };
  });
  let before = spans.find((span) => span !== null) ?? whole;
  return words.map((word, w) => {
    before = spans[w] ?? before;
    return { text: word.text, start: before.start, end: before.end };
  });
}

/**
 * Tiny arithmetic for "what is 2+3" and "what's seven times six": two numbers and one operator, in digits or
 * in words up to twenty. Anything else is not treated as a sum.
 */

export type Operator = "plus" | "minus" | "times" | "divided by";

export interface Sum {
  a: number;
  op: Operator;
  b: number;
}

const NUMBER_WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
  "twenty",
];
const NUMBER = `(-?\\d+(?:\\.\\d+)?|${NUMBER_WORDS.join("|")})`;
const OPERATOR = "(\\+|plus|add|and|-|minus|take away|\\*|x|×|times|multiplied by|/|÷|divided by|over)";
const SUM = new RegExp(`${NUMBER}\\s*${OPERATOR}\\s*${NUMBER}`);
const OPERATORS = new Map<string, Operator>(
  Object.entries({
    "+": "plus",
    plus: "plus",
    add: "plus",
    and: "plus",
    "-": "minus",
    minus: "minus",
    "take away": "minus",
    "*": "times",
    x: "times",
    "×": "times",
    times: "times",
    "multiplied by": "times",
    "/": "divided by",
    "÷": "divided by",
    "divided by": "divided by",
    over: "divided by",
  } satisfies Record<string, Operator>),
);

/** Reads one sum from normalised text; "and" only counts in a question ("what is 2 and 2"). */
export function parseSum(text: string): Sum | null {
  const match = SUM.exec(text);
  if (!match) return null;
  const [, left, word, right] = match as unknown as [string, string, string, string];
  if (word === "and" && !/\b(?:what|what's|whats|how much)\b/.test(text)) return null;
  const op = OPERATORS.get(word);
  if (!op) return null;
  return { a: toNumber(left), op, b: toNumber(right) };
}

/** The result, or null for a division by zero. */
export function solve(sum: Sum): number | null {
  switch (sum.op) {
    case "plus":
      return sum.a + sum.b;
    case "minus":
      return sum.a - sum.b;
    case "times":
      return sum.a * sum.b;
    case "divided by":
      return sum.b === 0 ? null : sum.a / sum.b;
  }
}

/** Prints a number the way a person would say it: whole, or rounded to two decimals. */
export function say(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/** The number word for 0..20, for counting out loud. */
export function numberWord(n: number): string {
  return NUMBER_WORDS[n] ?? String(n);
}

function toNumber(token: string): number {
  const index = NUMBER_WORDS.indexOf(token);
  return index >= 0 ? index : Number(token);
}

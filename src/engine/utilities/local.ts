/**
 * The local utility model: deterministic word rules, no AI, for the offline `local` engine (development,
 * tests, demos). What it does, also in the README:
 *
 * classify, yes/no answers (yes/no, true/false, in any case):
 *   "yes" when the text contains a phrase quoted in the question ("say 'bye' or 'goodbye'") or one of the
 *   question's content words (its words minus function words and words about the conversation itself such
 *   as "user", "mention", "message"; "cats" also matches "cat"; a mood word such as "sad" also matches its
 *   short word list), else "no".
 * classify, other answer sets:
 *   each answer scores one point per word of the text that is one of the answer's own words or of its label's
 *   short word list (positive, negative, happy, sad, angry, scared, question, greeting, goodbye, billing,
 *   technical, ...); "don't like" counts for a negative answer, not a positive one. The highest score wins
 *   (the earlier answer on a tie); with no point at all, the first answer named neutral, other, none, unknown,
 *   general or no, else the first answer.
 * extract:
 *   by what the prompt asks for: a number ("order number", "age", "how many") -> the first number; a colour
 *   -> the first colour word; an animal or pet -> the first animal word; anything else -> the most frequent
 *   content word (the longest on a tie). "" when there is nothing to extract.
 *
 * The text is the utility's subject (the child's redacted words, or the reply), else the last message.
 */
import { ANIMALS, COLOURS, FALLBACK_ANSWERS, LABEL_WORDS, NEGATORS, NO, NUMBER_WORDS, STOP_WORDS, YES } from "./local-words.ts";
import type { UtilityModel, UtilityQuery } from "./types.ts";

const POSITIVE_LABELS = new Set(["positive", "happy", "good"]);
const NEGATIVE_LABELS = new Set(["negative", "sad", "bad", "unhappy"]);
const MAX_EXTRACT_CHARS = 100;

/**
 * The local, deterministic utility model.
 * @example await createLocalUtilityModel().classify(query, ["yes", "no"])
 */
export function createLocalUtilityModel(): UtilityModel {
  return {
    name: "local",
    classify: async (query, answers) => classifyText(query.instruction, subjectText(query), answers),
    extract: async (query) => extractText(query.instruction, subjectText(query)),
  };
}

function subjectText(query: UtilityQuery): string {
  return query.subject?.text ?? query.history.at(-1)?.text ?? "";
}

/**
 * The answer the rules give to `question` about `text`.
 * @example classifyText("Did the user mention cats?", "I love my cat", ["yes", "no"]) // "yes"
 */
export function classifyText(question: string, text: string, answers: readonly string[]): string {
  if (answers.length === 0) return "";
  const words = tokens(text);
  const stems = words.map(stem);
  const pair = yesNoPair(answers);
  if (pair) return mentions(question, stems) ? pair.yes : pair.no;

  const scores = answers.map((answer) => score(answerTerms(answer), words, stems));
  const best = Math.max(...scores);
  if (best > 0) return answers[scores.indexOf(best)] as string;
  return answers.find((answer) => FALLBACK_ANSWERS.has(normalise(answer))) ?? (answers[0] as string);
}

/**
 * What the rules extract from `text` for `prompt`.
 * @example extractText("Extract the user's order number", "it is 123456 I think") // "123456"
 */
export function extractText(prompt: string, text: string): string {
  const words = tokens(text).filter((w) => w !== "?");
  if (words.length === 0) return "";
  const asks = prompt.toLowerCase();
  let found: string | undefined;
  if (/\b(number|numbers|digits?|age|old|how many|count|code|id|amount|score)\b/.test(asks)) {
    found = words.find((w) => /^\d+$/.test(w)) ?? (words.map((w) => NUMBER_WORDS.get(w)).find((n) => n !== undefined) as string | undefined);
  } else if (/\bcolou?rs?\b/.test(asks)) {
    found = words.find((w) => COLOURS.includes(w));
  } else if (/\b(animals?|pets?|creatures?)\b/.test(asks)) {
    found = words.find((w) => ANIMALS.includes(stem(w)));
  } else {
    found = mostFrequentContentWord(words);
  }
  return (found ?? "").slice(0, MAX_EXTRACT_CHARS);
}

/** Lower-case words (and "?" as its own token), apostrophes kept inside words. */
function tokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text
    .normalize("NFKC")
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}’']+|\?/gu)) {
    const word = match[0].replace(/’/g, "'").replace(/^'+|'+$/g, "");
    if (word) out.push(word);
  }
  return out;
}

/** A light stemmer: enough for "cats" = "cat", "crying" = "cry", "stories" = "story". */
function stem(word: string): string {
  let w = word.replace(/'s$/, "");
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2);
  return w;
}

function normalise(answer: string): string {
  return answer.trim().toLowerCase();
}

function yesNoPair(answers: readonly string[]): { yes: string; no: string } | null {
  if (answers.length !== 2) return null;
  const yes = answers.find((a) => YES.has(normalise(a)));
  const no = answers.find((a) => NO.has(normalise(a)));
  return yes !== undefined && no !== undefined ? { yes, no } : null;
}

/** Phrases quoted in a question: 'bye', "end conversation" (an apostrophe inside a word is not a quote). */
function quotedPhrases(question: string): { phrases: string[][]; rest: string } {
  const phrases: string[][] = [];
  const rest = question.replace(/(?<![\p{L}\p{N}])['‘"“]([^'’"”]{1,80})['’"”](?![\p{L}\p{N}])/gu, (_m, inner: string) => {
    const words = tokens(inner).map(stem);
    if (words.length > 0) phrases.push(words);
    return " ";
  });
  return { phrases, rest };
}

/** Whether the text's stems contain a quoted phrase or a content word of the question. */
function mentions(question: string, stems: readonly string[]): boolean {
  const { phrases, rest } = quotedPhrases(question);
  if (phrases.some((phrase) => containsSequence(stems, phrase))) return true;
  const terms = new Set<string>();
  for (const word of tokens(rest)) {
    if (word === "?" || STOP_WORDS.has(word) || word.length < 2) continue;
    terms.add(stem(word));
    for (const extra of LABEL_WORDS.get(word) ?? []) terms.add(stem(extra));
  }
  return stems.some((s) => terms.has(s));
}

function containsSequence(stems: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= stems.length; i++) {
    if (phrase.every((word, j) => stems[i + j] === word)) return true;
  }
  return false;
}

interface AnswerTerms {
  stems: Set<string>;
  labels: Set<string>;
}

/** An answer's own words ("technical_support" -> technical, support) and its labels' word lists. */
function answerTerms(answer: string): AnswerTerms {
  const stems = new Set<string>();
  const labels = new Set<string>();
  const words = normalise(answer)
    .split(/[\s_\-/]+/)
    .filter(Boolean);
  for (const word of [normalise(answer), ...words]) {
    const list = LABEL_WORDS.get(word);
    if (list) {
      labels.add(word);
      for (const extra of list) stems.add(stem(extra));
    }
    if (!STOP_WORDS.has(word) || LABEL_WORDS.has(word)) stems.add(stem(word));
  }
  return { stems, labels };
}

function score(terms: AnswerTerms, words: readonly string[], stems: readonly string[]): number {
  const negativeAnswer = [...terms.labels].some((l) => NEGATIVE_LABELS.has(l));
  const positiveAnswer = [...terms.labels].some((l) => POSITIVE_LABELS.has(l));
  let points = 0;
  stems.forEach((s, i) => {
    const negated = NEGATORS.has(words[i - 1] ?? "") || NEGATORS.has(words[i - 2] ?? "");
    const positiveWord = (LABEL_WORDS.get("positive") ?? []).includes(words[i] as string);
    if (negated && positiveWord) {
      // "don't like" speaks for a negative answer and against a positive one.
      if (negativeAnswer) points++;
      return;
    }
    if (terms.stems.has(s) && !(positiveAnswer && negated)) points++;
  });
  return points;
}

function mostFrequentContentWord(words: readonly string[]): string | undefined {
  const counts = new Map<string, { word: string; count: number; first: number }>();
  words.forEach((word, i) => {
    if (STOP_WORDS.has(word) || NEGATORS.has(word) || word.length < 3 || /^\d+$/.test(word)) return;
    const key = stem(word);
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { word, count: 1, first: i });
  });
  let best: { word: string; count: number; first: number } | undefined;
  for (const entry of counts.values()) {
    if (!best || entry.count > best.count || (entry.count === best.count && entry.word.length > best.word.length)) best = entry;
  }
  return best?.word;
}

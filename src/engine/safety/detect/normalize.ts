/**
 * Turns what a child (or a model) wrote into a canonical form the rules can match, undoing the tricks that
 * children use by accident and adversaries use on purpose:
 *
 *   raw ──clean()──> letters only from the Latin alphabet, lowercase, no invisible characters
 *       ──canonical()──> space-separated canonical words: leetspeak decoded, spaced-out letters joined,
 *                        repeated letters squeezed, chat spellings expanded ("u" -> "you", "wanna" -> "want to"),
 *                        distinctive misspellings mapped to the word ("sucide" -> "suicide").
 *
 * Rules it keeps:
 * - nothing here decides what is unsafe: it only removes disguises, so the rules stay readable English;
 * - clean() is per character and keeps the text's length order, so PII finders can run on it;
 * - the canonical view is always " word word word " (a space at both ends), so rules can use " word " or \b;
 * - cost is linear in the text and allocation-light: the per-sentence budget is well under a millisecond.
 */
import unhomoglyph from "unhomoglyph";

/** Invisible characters used to split words ("k\u200Bill") and format controls (bidi overrides). */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;
const MARKS = /\p{M}+/gu;
const ASCII_ALNUM = /^[a-z0-9]+$/i;

/**
 * Look-alikes that Unicode's confusables table maps to another non-Latin letter (or not at all), filled in by hand:
 * small capitals and a few letters adversaries use in place of Latin ones.
 */
const EXTRA_LOOKALIKES: Record<string, string> = {
  "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ĸ": "k",
  "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y",
  "ᴢ": "z", "ß": "ss", "ø": "o", "Ø": "o", "đ": "d", "ł": "l", "ħ": "h", "æ": "ae", "œ": "oe", "ɑ": "a", "ɡ": "g",
  "ı": "i", "ȷ": "j", "ʃ": "s", "ƒ": "f", "ŧ": "t", "ƈ": "c", "ɨ": "i", "ʉ": "u", "ɇ": "e", "ɍ": "r", "€": "e", "£": "l",
};

/** Emoji that stand for a word the rules know; most emoji carry no risk and are dropped. */
const EMOJI_WORDS: Record<string, string> = {
  "🔪": " knife ", "🗡": " knife ", "🔫": " gun ", "💣": " bomb ", "🧨": " bomb ", "🚬": " cigarette ", "🍺": " beer ",
  "🍻": " beer ", "🍷": " wine ", "🥃": " whiskey ", "🍸": " cocktail ", "💉": " syringe ", "💊": " pill ", "🍆": " eggplant ",
  "🖕": " fuck ", "🍑": " peach ", "💦": " splash ", "🌿": " herb ", "🍁": " leaf ", "卐": " swastika ", "卍": " swastika ",
};

const charCache = new Map<string, string>();

/** Maps one non-ASCII character to ASCII letters when it is a look-alike of them, else to itself. */
function foldChar(ch: string): string {
  const cached = charCache.get(ch);
  if (cached !== undefined) return cached;
  let out = EXTRA_LOOKALIKES[ch] ?? EMOJI_WORDS[ch];
  if (out === undefined) {
    const bare = ch.normalize("NFKD").replace(MARKS, "");
    if (bare !== ch && ASCII_ALNUM.test(bare)) out = bare;
    else {
      // Unicode's confusables table (UTS #39) via unhomoglyph: Cyrillic "а" -> "a", Greek "ο" -> "o", ...
      const folded = unhomoglyph(bare || ch).normalize("NFKD").replace(MARKS, "");
      const again = [...folded].map((c) => EXTRA_LOOKALIKES[c] ?? c).join("");
      out = ASCII_ALNUM.test(again) ? again : bare || ch;
    }
  }
  if (charCache.size < 20_000) charCache.set(ch, out);
  return out;
}

/**
 * Compatibility-folds (fullwidth digits, ligatures) and removes invisible characters, keeping case and letters:
 * the form that is redacted and handed to the model.
 * @example visible("５５５\u200B1234") // "5551234"
 */
export function visible(text: string): string {
  return text.normalize("NFKC").replace(INVISIBLE, "");
}

/**
 * Maps each look-alike letter to its one ASCII letter and leaves everything else as it is, so the result has the
 * same length as the input and a span found in it is a span of the input (PII finders on "emаil@gmаil.cоm").
 * @example foldSameLength("jаkе@mаil.com") // "jake@mail.com"
 */
export function foldSameLength(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (code < 128 || ch.length !== 1) {
      out += ch;
      continue;
    }
    const folded = foldChar(ch);
    out += folded.length === 1 && /[a-z0-9]/i.test(folded) ? (ch === ch.toLowerCase() ? folded : folded.toUpperCase()) : ch;
  }
  return out;
}

/**
 * Compatibility-folds, strips invisible characters and accents, maps look-alike letters to ASCII, lowercases.
 * @example clean("ｋіll\u200B mу sеlf") // "kill my self"
 */
export function clean(text: string): string {
  const folded = text.normalize("NFKC").replace(INVISIBLE, "");
  let out = "";
  for (const ch of folded) {
    const code = ch.codePointAt(0) as number;
    out += code < 128 ? ch : foldChar(ch);
  }
  return out.replace(MARKS, "").toLowerCase();
}

/** Digits and symbols read as letters inside a word ("k1ll", "$ex", "pr0n"). */
const LEET: Record<string, string> = {
  "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a", $: "s", "!": "i", "|": "l", "+": "t", "€": "e", "(": "c", "<": "c",
};
const LEET_CHARS = /[0-9@$!|+(<]/;
const HAS_LETTER = /[a-z]/;

/** Chat spellings children use, expanded so rules are written once in plain English. */
const CHAT: Record<string, string> = {
  u: "you", ya: "you", yu: "you", ur: "your", youre: "you are", yr: "your", r: "are", im: "i am", ima: "i am going to", imma: "i am going to",
  ive: "i have", ill: "i will", id: "i would", dont: "do not", doesnt: "does not", didnt: "did not", cant: "can not", cannot: "can not",
  wont: "will not", isnt: "is not", arent: "are not", wasnt: "was not", aint: "is not", wanna: "want to", wana: "want to", gonna: "going to",
  gona: "going to", gotta: "got to", hafta: "have to", lemme: "let me", gimme: "give me", kinda: "kind of", tryna: "trying to",
  pls: "please", plz: "please", plez: "please", cuz: "because", coz: "because", bc: "because", bcuz: "because", b4: "before",
  thx: "thanks", ppl: "people", some1: "someone", any1: "anyone", every1: "everyone", no1: "no one", noone: "no one",
  nobodys: "nobody is", myslef: "myself", meself: "myself", urself: "yourself", yourslef: "yourself", thats: "that is", whats: "what is",
  wheres: "where is", hes: "he is", shes: "she is", theyre: "they are", lets: "let us", luv: "love", n: "and", "2": "to", "4": "for",
  h8: "hate", h8ed: "hated", h8s: "hates", gr8: "great", l8r: "later", m8: "mate", sum1: "someone", mum: "mom", mommy: "mom", mummy: "mom",
  mama: "mom", momma: "mom", dad: "dad", daddy: "dad", papa: "dad", pic: "picture", pics: "pictures",
  pix: "pictures", picz: "pictures", ok: "okay", k: "okay", wat: "what", wut: "what", wen: "when", wher: "where", hw: "how", tht: "that",
  nd: "and", abt: "about", bout: "about", rn: "right now", irl: "in real life", dm: "message", dms: "messages", msg: "message", txt: "text",
  kil: "kill", kll: "kill", mak: "make", bom: "bomb", rulez: "rules", w: "with", addy: "address", addie: "address", "3d": "3d",
  selfharm: "self harm", myself: "myself", stepdad: "step dad", stepmom: "step mom", stepfather: "step dad", stepmother: "step mom",
  grandad: "grandpa", granddad: "grandpa", gramps: "grandpa", nana: "grandma", granny: "grandma", gran: "grandma",
};

/** Distinctive words whose misspellings a child makes; a near word (one edit, two for long words) maps to them. */
const FUZZY_TARGETS = [
  "suicide", "suicidal", "myself", "yourself", "cigarette", "cigarettes", "marijuana", "cocaine", "vodka", "whiskey", "murder",
  "pornography", "molested", "touched", "private", "privates", "instructions", "previous", "restrictions", "developer", "snapchat",
  "instagram", "discord", "whatsapp", "telegram", "password", "address", "secret", "naked", "strangle", "explosive", "explosives",
  "overdose", "ecstasy", "alcohol", "beheaded", "decapitate", "terrorist", "shooting", "inappropriately", "inappropriate", "system",
  "jailbreak", "unfiltered", "uncensored", "unrestricted", "vaping", "nicotine", "tobacco", "someone", "stranger", "kidnap",
];
/** Real words that sit one edit from a target and must not be "corrected". */
const NOT_TYPOS = new Set([
  "myself", "herself", "himself", "itself", "murders", "privately", "secrets", "secretly", "systems", "named", "baked", "naker", "address", "strange",
  "strangers",
]);

const vocabulary = new Set<string>(FUZZY_TARGETS);

/** True when a word is one the rules, the chat table or the classifier know ("friend", "kill"). */
export function isKnownWord(word: string): boolean {
  return vocabulary.has(word);
}

/** Adds the words rules are written with, so squeezed or leet spellings can be resolved to them. */
export function addVocabulary(words: Iterable<string>): void {
  for (const w of words) if (w.length >= 2) vocabulary.add(w);
  recent.clear();
}

/** Words of the chat table's outputs and of the rules are known; the rest are left alone unless they fuzz. */
for (const v of Object.values(CHAT)) for (const w of v.split(" ")) vocabulary.add(w);

/** One token: leet decoded when it mixes letters with digits or symbols ("k1ll" -> "kill", "$3x" -> "sex"). */
function deleet(token: string): string[] {
  if (!LEET_CHARS.test(token)) return [token];
  const digitsOnly = !HAS_LETTER.test(token.replace(/[0-9]/g, ""));
  // Whole numbers stay numbers ("2", "1999"); a lone symbol run stays as is.
  if (/^[0-9]+$/.test(token) || (digitsOnly && !HAS_LETTER.test(token) && !/[@$!|]/.test(token))) return [token];
  if (!HAS_LETTER.test(token) && !/^[@$!|0-9+(<]{2,}$/.test(token)) return [token];
  const asI = [...token].map((c) => LEET[c] ?? c).join("");
  const asL = token.includes("1") ? [...token].map((c) => (c === "1" ? "l" : (LEET[c] ?? c))).join("") : null;
  return asL && asL !== asI ? [asI, asL] : [asI];
}

/** Candidate spellings with each run of a repeated letter as one or two letters ("kiiilll" -> kil, kill, kiil, kiill). */
function squeezeCandidates(token: string): string[] {
  const runs: { ch: string; n: number }[] = [];
  for (const ch of token) {
    const last = runs[runs.length - 1];
    if (last && last.ch === ch) last.n++;
    else runs.push({ ch, n: 1 });
  }
  const repeated = runs.filter((r) => r.n > 1).length;
  if (repeated === 0) return [token];
  if (repeated > 4) return [runs.map((r) => r.ch.repeat(Math.min(r.n, 2))).join("")];
  let out = [""];
  for (const r of runs) {
    if (r.n === 1) out = out.map((s) => s + r.ch);
    else out = out.flatMap((s) => [s + r.ch, s + r.ch + r.ch]);
  }
  return out;
}

/** Damerau–Levenshtein distance, stopping early once it passes `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (prev2[j - 2] as number) + 1);
      row.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev2.splice(0, prev2.length, ...prev);
    prev = row;
  }
  return prev[b.length] as number;
}

const fuzzCache = new Map<string, string>();

/** The fuzzy target a misspelt word stands for, or the word itself. */
function unmisspell(word: string): string {
  if (word.length < 6 || vocabulary.has(word) || NOT_TYPOS.has(word)) return word;
  const cached = fuzzCache.get(word);
  if (cached !== undefined) return cached;
  let out = word;
  for (const target of FUZZY_TARGETS) {
    if (target[0] !== word[0] && target[1] !== word[1]) continue;
    const max = target.length >= 9 ? 2 : 1;
    if (distance(word, target, max) <= max) {
      out = target;
      break;
    }
  }
  if (fuzzCache.size < 50_000) fuzzCache.set(word, out);
  return out;
}

/** Resolves one cleaned token (letters and digits only) to its canonical spelling. */
function canonicalWord(token: string): string {
  const chat = CHAT[token];
  if (chat !== undefined) return chat;
  if (vocabulary.has(token) || /[0-9]/.test(token)) return token;
  const candidates = squeezeCandidates(token);
  if (candidates.length > 1) {
    for (const c of candidates) if (vocabulary.has(c) || CHAT[c] !== undefined) return CHAT[c] ?? c;
    // Unknown emphatic spelling ("soooo"): runs of three or more become two.
    token = token.replace(/(.)\1{2,}/g, "$1$1");
  }
  // "hurtz", "rulez", "sayz": a final z written for s.
  if (token.length > 3 && token.endsWith("z") && vocabulary.has(`${token.slice(0, -1)}s`)) return `${token.slice(0, -1)}s`;
  return unmisspell(token);
}

/** The views of one text that the detectors read. */
export interface TextViews {
  /** Cleaned text (look-alikes folded, lowercase), same words and punctuation as the original. */
  clean: string;
  /** " canonical words separated by single spaces " (leading and trailing space). */
  canon: string;
  /** The canonical words with no spaces, for phrases spelt as one run ("killmyself"). */
  compact: string;
}

const OUTER_PUNCT_START = /^[^a-z0-9$@]+/;
const OUTER_PUNCT_END = /[^a-z0-9]+$/;
const SPELT_OUT = /^(?:[a-z0-9][.\-_*]){2,}[a-z0-9]$/;
const SUBTOKEN = /[^a-z0-9@$!|+]+/;

/** A token as written when it is a known word or chat spelling ("sum1", "base64"), else its leet reading ("k1ll"). */
function pickSpelling(token: string): string {
  if (CHAT[token] !== undefined || vocabulary.has(token)) return token;
  const leet = deleet(token);
  const known = leet.find((l) => vocabulary.has(l) || CHAT[l] !== undefined);
  if (known) return known;
  // "dragon99", "base64", "mp3": letters then a number are a name or a code, not leetspeak.
  if (/^[a-z]+[0-9]+$/.test(token)) return token;
  return leet[0] as string;
}

/**
 * Splits a run of letters into known words when it can ("howtomakeabomb" -> "how to make a bomb"), preferring
 * fewer, longer words; null when some part is not a known word.
 */
function segment(run: string): string[] | null {
  if (run.length > 60) return null;
  const best: (string[] | null)[] = [[]];
  for (let end = 1; end <= run.length; end++) {
    best[end] = null;
    for (let start = Math.max(0, end - 16); start < end; start++) {
      const prev = best[start];
      const word = run.slice(start, end);
      if (!prev || !(vocabulary.has(word) || word === "a" || word === "i" || CHAT[word] !== undefined)) continue;
      const candidate = [...prev, word];
      const current = best[end];
      if (!current || candidate.length < current.length) best[end] = candidate;
    }
  }
  return best[run.length] ?? null;
}

/** Resolves a run of single letters: joined when it spells a known word or is long ("k i l l"), else chat words ("u r a"). */
function resolveSingles(singles: string[], words: string[]): void {
  if (singles.length === 0) return;
  const joined = canonicalWord(singles.join(""));
  if (singles.length >= 3 && vocabulary.has(joined)) words.push(joined);
  else if (singles.length >= 4) {
    const parts = segment(singles.join(""));
    if (parts && parts.length > 1) for (const p of parts) words.push(CHAT[p] ?? p);
    else words.push(joined);
  } else for (const s of singles) words.push(CHAT[s] ?? s);
}

/**
 * "id" is the chat spelling of "i'd" ("id kill him") but also the noun ("apple ID", "my id card", "user id"):
 * read as the noun after a word that owns or names one, or before a word that completes one.
 */
const ID_MARK = "\u0001id";
const ID_BEFORE = new Set(
  ("apple user player game gamer fake student photo caller login account my your his her their our the an this that valid school steam epic discord " +
    "roblox xbox psn nintendo google microsoft meeting zoom skype email unique device").split(" "),
);
const ID_AFTER = new Set("card cards number numbers badge badges please check photo is are was".split(" "));
function idReading(prev: string | undefined, next: string | undefined): string {
  return (prev !== undefined && ID_BEFORE.has(prev)) || (next !== undefined && ID_AFTER.has(next)) ? "id" : "i would";
}

/** A text cleaned and cut into the words the canonical view is resolved from (single letters not yet joined). */
interface Tokens {
  clean: string;
  tokens: string[];
}

function tokenize(text: string): Tokens {
  const c = clean(text);
  const tokens: string[] = [];
  for (const rawChunk of c.replace(/['’`]/g, "").split(/\s+/)) {
    const chunk = rawChunk.replace(OUTER_PUNCT_START, "").replace(OUTER_PUNCT_END, "").replace(/\*+/g, "");
    if (chunk === "") continue;
    if (SPELT_OUT.test(chunk)) {
      tokens.push(chunk.replace(/[.\-_*]/g, ""));
      continue;
    }
    for (const sub of chunk.split(SUBTOKEN)) {
      if (sub === "") continue;
      const chosen = pickSpelling(sub);
      for (const w of chosen.split(/[^a-z0-9]+/)) if (w) tokens.push(w);
    }
  }
  return { clean: c, tokens };
}

/** Joins runs of single letters, resolves each word to its canonical spelling and reads "id" by its neighbours. */
function resolve(c: string, tokens: readonly string[]): TextViews {
  const words: string[] = [];
  let singles: string[] = [];
  for (const word of tokens) {
    if (word.length === 1 && /[a-z]/.test(word)) {
      singles.push(word);
      continue;
    }
    resolveSingles(singles, words);
    singles = [];
    words.push(word === "id" ? ID_MARK : canonicalWord(word));
  }
  resolveSingles(singles, words);
  for (let i = 0; i < words.length; i++) if (words[i] === ID_MARK) words[i] = idReading(words[i - 1], words[i + 1]);
  const canon = ` ${words.join(" ")} `.replace(/ {2,}/g, " ");
  return { clean: c, canon, compact: canon.replace(/ /g, "") };
}

/**
 * The last model sentences tokenised, so the output gate's joint check of "<previous> <sentence>" (output-gate.ts)
 * cleans and cuts neither part again. Exact: cleaning works character by character and a space is a normalisation
 * boundary (NFKC composes nothing with it), so clean(a + " " + b) is clean(a) + " " + clean(b); the text is cut
 * at white space, so the tokens of a + " " + b are a's then b's; everything that reads neighbouring words (joining
 * single letters, "id") runs again on the joined tokens. Only output sentences are kept (never a child's message),
 * at most RECENT_MAX, dropped when the vocabulary grows (a token's spelling depends on it).
 */
const recent = new Map<string, Tokens>();
const RECENT_MAX = 64;

function remembered(text: string): Tokens {
  const own = recent.get(text);
  if (own !== undefined) return own;
  for (const [first, head] of recent) {
    if (text.length <= first.length + 1 || text.charCodeAt(first.length) !== 32 || !text.startsWith(first)) continue;
    const tail = recent.get(text.slice(first.length + 1));
    if (tail !== undefined) return { clean: `${head.clean} ${tail.clean}`, tokens: [...head.tokens, ...tail.tokens] };
  }
  const made = tokenize(text);
  recent.set(text, made);
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
  return made;
}

/**
 * Builds the views of a text; `sentence` marks a model sentence, whose tokens are kept for the joint check.
 * @example views("I wanna k1lll mysellf").canon // " i want to kill myself "
 */
export function views(text: string, sentence = false): TextViews {
  const t = sentence ? remembered(text) : tokenize(text);
  return resolve(t.clean, t.tokens);
}

/**
 * Which of flite's phones belong to which word of the text. Flite reports its segments (phones with end times)
 * but, from its command line, not which word each came from, so the words are found again by aligning the
 * letters of the text with the phones, the way letter-to-sound rules are trained for Festival and Flite (Black,
 * Lenzo & Pagel, "Issues in building general letter to sound rules", 1998): each letter may give the phones of
 * a short "allowables" list, or nothing (silent letters); a phone may come from no letter (numbers and
 * abbreviations that flite expands). The cheapest alignment wins (dynamic programming over letters × phones),
 * with two constraints: a pause falls only between words, and every word gets at least one phone.
 */

/** The phones each letter may give (beyond these it costs MISMATCH). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  a: ["aa", "ae", "ah", "ao", "aw", "ax", "ay", "ey", "eh", "ih", "er", "axr", "iy"],
  b: ["b"],
  c: ["k", "s", "ch", "sh"],
  d: ["d", "t", "jh"],
  e: ["eh", "iy", "ih", "ax", "ah", "er", "ey", "axr", "y"],
  f: ["f", "v"],
  g: ["g", "jh", "zh", "ng", "k", "f"],
  h: ["hh"],
  i: ["ih", "ay", "iy", "ax", "ah", "y", "er"],
  j: ["jh", "y", "hh"],
  k: ["k"],
  l: ["l", "el"],
  m: ["m", "em"],
  n: ["n", "en", "ng"],
  o: ["ow", "ao", "aa", "ah", "ax", "uw", "uh", "aw", "oy", "w", "er"],
  p: ["p", "f"],
  q: ["k"],
  r: ["r", "er", "axr"],
  s: ["s", "z", "sh", "zh"],
  t: ["t", "th", "dh", "ch", "sh", "d", "dx"],
  u: ["ah", "uw", "uh", "y", "ax", "er", "w", "ih"],
  v: ["v", "f"],
  w: ["w", "uw"],
  x: ["k", "s", "z", "g"],
  y: ["y", "iy", "ih", "ay"],
  z: ["z", "s", "zh"],
};
const VOWEL_LETTERS = "aeiouy";
const MISMATCH = 2.5;
/** A phone from no letter; a pause inside a word. */
const INSERTED = 1.5;
const PAUSE_IN_WORD = 20;
/** About 1,000 letters by 1,000 phones: a few ms and 20 MB at most. */
const MAX_CELLS = 1_000_000;

function matchCost(letter: string, phone: string): number {
  return ALLOWED[letter]?.includes(phone) ? 0 : MISMATCH;
}

/** What it costs for letter `i` of `letters` to be silent. */
function silentCost(letters: string, i: number, wordEnd: boolean): number {
  const letter = letters[i];
  if (letter === letters[i - 1]) return 0.1;
  if (letter === "e" && wordEnd) return 0.1;
  if (letter === "h" && "cstpwgkr".includes(letters[i - 1] ?? "")) return 0.2;
  if (letter === "g" && letters[i + 1] === "h") return 0.4;
  if (VOWEL_LETTERS.includes(letter)) return 0.7;
  return 1.2;
}

/**
 * For each word, the index of its first and last phone in `phones` (pauses are "pau"), or null when the
 * words cannot all get a phone (fewer phones than words) or the sentence is too long to align. `words` are the spoken forms (letters only, numbers
 * spelled out, see spokenLetters).
 * @example alignWords(["hello", "there"], ["pau", "hh", "ax", "l", "ow", "dh", "eh", "r", "pau"]) // [[1, 4], [5, 7]]
 */
export function alignWords(words: readonly string[], phones: readonly string[]): [number, number][] | null {
  const spoken = phones.filter((phone) => phone !== "pau").length;
  const letters = words.join("");
  // The table grows with letters × phones: a sentence far longer than the chunker makes is not aligned.
  if (words.length === 0 || spoken < words.length || (letters.length + 1) * (phones.length + 1) > MAX_CELLS) return null;
  const wordOf: number[] = [];
  words.forEach((word, w) => {
    for (let k = 0; k < word.length; k++) wordOf.push(w);
  });
  const starts = (i: number) => i === 0 || wordOf[i] !== wordOf[i - 1];
  const ends = (i: number) => i === letters.length - 1 || wordOf[i] !== wordOf[i + 1];
  const L = letters.length;
  const P = phones.length;
  // cost[f][i][j]: letters < i and phones < j aligned; f = the word of letter i-1 already has a phone.
  const width = P + 1;
  const size = (L + 1) * width;
  const cost = [new Float64Array(size).fill(Infinity), new Float64Array(size).fill(Infinity)];
  const move = [new Int8Array(size), new Int8Array(size)];
  cost[1][0] = 0;
  // A move is stored with the flag of the cell it came from (kind + 8 * flag), so the walk back is exact.
  let from = 0;
  const relax = (f: number, i: number, j: number, value: number, kind: number) => {
    const at = i * width + j;
    if (value < cost[f][at]) {
      cost[f][at] = value;
      move[f][at] = kind + 8 * from;
    }
  };
  // Moves: 1 letter -> phone, 2 letter -> two phones, 3 silent letter, 4 phone from no letter (or a pause).
  for (let i = 0; i <= L; i++) {
    for (let j = 0; j <= P; j++) {
      for (let f = 0; f < 2; f++) {
        const here = cost[f][i * width + j];
        if (here === Infinity) continue;
        from = f;
        if (j < P) {
          const phone = phones[j];
          if (phone === "pau") relax(f, i, j + 1, here + (i === 0 || i === L || starts(i) ? 0 : PAUSE_IN_WORD), 4);
          else if (i > 0) relax(1, i, j + 1, here + INSERTED, 4);
        }
        if (i === L) continue;
        // A new word may begin only once the previous one has a phone.
        if (starts(i) && f === 0) continue;
        const letter = letters[i];
        if (j < P && phones[j] !== "pau") {
          relax(1, i + 1, j + 1, here + matchCost(letter, phones[j]), 1);
          if (j + 1 < P && phones[j + 1] !== "pau") relax(1, i + 1, j + 2, here + matchCost(letter, phones[j]) + matchCost(letter, phones[j + 1]) + 0.5, 2);
        }
        relax(starts(i) ? 0 : f, i + 1, j, here + silentCost(letters, i, ends(i)), 3);
      }
    }
  }
  if (cost[1][L * width + P] === Infinity) return null;
  const spans: [number, number][] = words.map(() => [-1, -1]);
  const take = (w: number, j: number) => {
    const span = spans[w];
    if (span[0] < 0 || j < span[0]) span[0] = j;
    if (j > span[1]) span[1] = j;
  };
  let i = L;
  let j = P;
  let f = 1;
  while (i > 0 || j > 0) {
    const stored = move[f][i * width + j];
    const kind = stored & 7;
    const before = previous(kind, i, j);
    if (kind === 1 || kind === 2) {
      for (let k = before.j; k < j; k++) take(wordOf[i - 1], k);
    } else if (kind === 4 && phones[j - 1] !== "pau") {
      take(wordOf[i - 1] ?? 0, j - 1);
    }
    f = stored >> 3;
    i = before.i;
    j = before.j;
  }
  return spans.every((span) => span[0] >= 0) ? spans : null;
}

function previous(kind: number, i: number, j: number): { i: number; j: number } {
  if (kind === 1) return { i: i - 1, j: j - 1 };
  if (kind === 2) return { i: i - 1, j: j - 2 };
  if (kind === 3) return { i: i - 1, j };
  return { i, j: j - 1 };
}

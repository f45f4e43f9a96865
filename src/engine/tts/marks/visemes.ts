/**
 * Sounds to mouth shapes. The viseme set and the sounds each one stands for are the Oculus/Meta Lipsync viseme
 * reference's (developers.meta.com/horizon/documentation/unity/audio-ovrlipsync-viseme-reference):
 *   sil silence · PP p b m · FF f v · TH th (think, that) · DD t d · kk k g · CH ch j sh · SS s z · nn n l · RR r
 *   aa "car" · E "bed" · I "tip" · O "toe" · U "book".
 * Flite speaks the CMU (ARPAbet) phone set; each phone goes to the viseme of its IPA sound in that reference.
 * Where the reference names no sound, the choice and its reason are given beside the phone.
 */
import type { Viseme } from "../../vocabulary.ts";

/** Flite's (CMU ARPAbet) phones to Oculus visemes; `hh` is absent on purpose (see visemeOfPhone). */
export const PHONE_VISEMES: Readonly<Record<string, Viseme>> = {
  pau: "sil",
  // Lips closed.
  p: "PP",
  b: "PP",
  m: "PP",
  em: "PP",
  // Lower lip to the teeth.
  f: "FF",
  v: "FF",
  th: "TH",
  dh: "TH",
  t: "DD",
  d: "DD",
  dx: "DD",
  k: "kk",
  g: "kk",
  // The velar nasal is made where k and g are (tongue back), not where n is.
  ng: "kk",
  ch: "CH",
  jh: "CH",
  sh: "CH",
  zh: "CH",
  s: "SS",
  z: "SS",
  n: "nn",
  en: "nn",
  nx: "nn",
  l: "nn",
  el: "nn",
  r: "RR",
  // The r-coloured vowels are held with the r shape.
  er: "RR",
  axr: "RR",
  // Open vowels, and the diphthongs that start open (ay "my", aw "how"); the schwa and "cup" are half open.
  aa: "aa",
  ae: "aa",
  ah: "aa",
  ax: "aa",
  ay: "aa",
  aw: "aa",
  eh: "E",
  ey: "E",
  ih: "I",
  iy: "I",
  // The glide y is a very short "ee".
  y: "I",
  ao: "O",
  ow: "O",
  oy: "O",
  uh: "U",
  uw: "U",
  // The glide w is a very short "oo" (rounded lips).
  w: "U",
};

/**
 * The viseme of a phone. `hh` has no mouth shape of its own (the mouth is already shaped for the sound after
 * it), so it takes `next`'s; an unknown phone counts as silence.
 * @example visemeOfPhone("b") // "PP"; visemeOfPhone("hh", "aa") // "aa"
 */
export function visemeOfPhone(phone: string, next?: string): Viseme {
  if (phone === "hh") return next === undefined || next === "hh" ? "sil" : visemeOfPhone(next);
  return PHONE_VISEMES[phone] ?? "sil";
}

/** Two letters that make one sound, and its viseme (checked before single letters). */
const LETTER_PAIRS: Readonly<Record<string, Viseme>> = {
  th: "TH",
  ch: "CH",
  sh: "CH",
  ph: "FF",
  ng: "kk",
  ck: "kk",
  qu: "kk",
  wh: "U",
  oo: "U",
  ee: "I",
  ea: "I",
  ou: "aa",
  ow: "O",
  ai: "E",
  ay: "E",
  oa: "O",
};

const LETTERS: Readonly<Record<string, Viseme>> = {
  a: "aa",
  b: "PP",
  c: "kk",
  d: "DD",
  e: "E",
  f: "FF",
  g: "kk",
  i: "I",
  j: "CH",
  k: "kk",
  l: "nn",
  m: "PP",
  n: "nn",
  o: "O",
  p: "PP",
  q: "kk",
  r: "RR",
  s: "SS",
  t: "DD",
  u: "U",
  v: "FF",
  w: "U",
  x: "SS",
  y: "I",
  z: "SS",
};

/**
 * A word's visemes guessed from its spelling (for voices that give no timings): letter pairs first, then
 * single letters; `h`, a doubled letter and a final silent `e` make no shape of their own.
 * @example lettersToVisemes("cheese") // ["CH", "I", "SS"]
 */
export function lettersToVisemes(word: string): Viseme[] {
  const letters = word.toLowerCase().replace(/[^a-z]/g, "");
  const out: Viseme[] = [];
  for (let i = 0; i < letters.length; i++) {
    const pair = LETTER_PAIRS[letters.slice(i, i + 2)];
    if (pair) {
      out.push(pair);
      i++;
      continue;
    }
    const letter = letters[i];
    if (letter === "h" || letter === letters[i - 1]) continue;
    if (letter === "e" && i === letters.length - 1 && i > 1) continue;
    const viseme = LETTERS[letter];
    if (viseme && viseme !== out[out.length - 1]) out.push(viseme);
  }
  return out;
}

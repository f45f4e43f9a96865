/**
 * A prefilter that keeps the rules fast: most rules cannot match most texts, and one scan finds which might.
 *
 * For each rule's regex we derive what every match must contain (requirementOf): the literal strings (2+
 * characters) of the parts every match passes through, all of a sequence's and any of a group's alternatives
 * ("kill ?(?:myself|yourself)" needs "kill" and one of "myself", "yourself"). Every literal of every rule goes
 * into one Aho-Corasick automaton; a text is scanned once, and only rules whose requirement holds are run (rules
 * with no usable literal always run). Until issue 26 a rule was run when any one set of its anchors occurred
 * ("kill" alone): most model sentences hold "you", so a third of the output rules ran on every one.
 *
 * Rules it keeps:
 * - it is exact, never a guess: an anchor is taken only from parts every match must pass through (not from
 *   optional parts, not from lookarounds, not from character classes); when in doubt a rule has no anchors and
 *   always runs. The tests compare findings with and without the prefilter on every labelled line.
 * - it only decides whether to run a rule; the rule's own regex still decides the finding.
 */

type Anchors = string[] | null;

/**
 * What every match of a regex must contain: a literal, all of some requirements (the parts of a sequence), or
 * any of some (the alternatives of a group). `null` is "nothing known": the regex may match anything.
 */
export type Requirement = string | { all: Requirement[] } | { any: Requirement[] };

interface Parser {
  src: string;
  i: number;
}

const MIN = 2;

/**
 * What every match of a regex must contain, or null when nothing is known (flags it cannot reason about, syntax
 * it does not parse, an alternative with no literal part).
 * @example requirementOf(/\bkill ?myself\b/) // { all: ["kill", "myself"] }
 */
export function requirementOf(re: RegExp): Requirement | null {
  if (re.flags.includes("i")) return null;
  const p: Parser = { src: re.source, i: 0 };
  try {
    const result = alternation(p);
    return p.i === p.src.length ? result : null;
  } catch {
    return null;
  }
}

/** Anchors of a whole regex source: every top-level alternative must have some, else null. */
export function anchorsOf(re: RegExp): Anchors {
  const r = requirementOf(re);
  return r === null ? null : anchors(r);
}

/** One set of literals of which every match contains at least one (the cheapest such set the requirement offers). */
function anchors(r: Requirement): Anchors {
  if (typeof r === "string") return [r];
  if ("any" in r) {
    const out = new Set<string>();
    for (const c of r.any) {
      const a = anchors(c);
      if (a === null) return null;
      for (const s of a) out.add(s);
    }
    return [...out];
  }
  const candidates = r.all.map(anchors).filter((a): a is string[] => a !== null);
  if (candidates.length === 0) return null;
  // Fewest strings first (cheapest and most selective), then the longest shortest string.
  candidates.sort((a, b) => a.length - b.length || Math.min(...b.map((s) => s.length)) - Math.min(...a.map((s) => s.length)));
  return candidates[0] as string[];
}

/** alternation := sequence ("|" sequence)*; every alternative must have a requirement, else null. */
function alternation(p: Parser): Requirement | null {
  const out: Requirement[] = [];
  let ok = true;
  for (;;) {
    const a = sequence(p);
    if (a === null) ok = false;
    else out.push(a);
    if (p.src[p.i] === "|") {
      p.i++;
      continue;
    }
    if (!ok) return null;
    return out.length === 1 ? (out[0] as Requirement) : { any: out };
  }
}

interface Item {
  /** A literal character (or null for anything else). */
  ch: string | null;
  /** What a group must contain (null when nothing is known). */
  group: Requirement | null;
  /** Whether the item must match at least once. */
  required: boolean;
  /** Whether the item may repeat (ends a literal run after its first character). */
  repeats: boolean;
}

/** sequence := item*; all of its required literal runs and required groups' requirements. */
function sequence(p: Parser): Requirement | null {
  const items: Item[] = [];
  while (p.i < p.src.length && p.src[p.i] !== "|" && p.src[p.i] !== ")") items.push(item(p));
  const parts: Requirement[] = [];
  let run = "";
  const flush = (): void => {
    // A run of two spaces is not taken: masking a team's allowed term leaves spaces the scanned (unmasked) view lacks.
    if (run.length >= MIN && !run.includes("  ")) parts.push(run);
    run = "";
  };
  for (const it of items) {
    if (it.ch !== null && it.required) {
      run += it.ch;
      if (it.repeats) flush();
      continue;
    }
    flush();
    if (it.group !== null && it.required) parts.push(it.group);
  }
  flush();
  if (parts.length === 0) return null;
  return parts.length === 1 ? (parts[0] as Requirement) : { all: parts };
}

function item(p: Parser): Item {
  const c = p.src[p.i] as string;
  let ch: string | null = null;
  let group: Requirement | null = null;
  let lookaround = false;
  if (c === "(") {
    p.i++;
    if (p.src.startsWith("?:", p.i)) p.i += 2;
    else if (p.src.startsWith("?=", p.i) || p.src.startsWith("?!", p.i)) (p.i += 2), (lookaround = true);
    else if (p.src.startsWith("?<=", p.i) || p.src.startsWith("?<!", p.i)) (p.i += 3), (lookaround = true);
    else if (p.src[p.i] === "?") throw new Error("unsupported group");
    const inner = alternation(p);
    if (p.src[p.i] !== ")") throw new Error("unbalanced");
    p.i++;
    group = lookaround ? null : inner;
  } else if (c === "[") {
    p.i++;
    while (p.i < p.src.length && p.src[p.i] !== "]") p.i += p.src[p.i] === "\\" ? 2 : 1;
    p.i++;
  } else if (c === "\\") {
    const next = p.src[p.i + 1] ?? "";
    p.i += 2;
    // An escaped punctuation mark is a literal; \b, \w, \d, \s and friends are not letters of an anchor.
    if (/[^a-zA-Z0-9]/.test(next)) ch = next;
    if (/[0-9]/.test(next) || next === "u" || next === "x" || next === "p" || next === "k") throw new Error("unsupported escape");
  } else if (c === "." || c === "^" || c === "$") {
    p.i++;
  } else {
    ch = c;
    p.i++;
  }
  const q = quantifier(p);
  if (lookaround) return { ch: null, group: null, required: false, repeats: false };
  return { ch, group, required: q.min >= 1, repeats: q.max !== 1 };
}

function quantifier(p: Parser): { min: number; max: number } {
  const c = p.src[p.i];
  let out = { min: 1, max: 1 };
  if (c === "?") (out = { min: 0, max: 1 }), p.i++;
  else if (c === "*") (out = { min: 0, max: Infinity }), p.i++;
  else if (c === "+") (out = { min: 1, max: Infinity }), p.i++;
  else if (c === "{") {
    const m = /^\{(\d+)(?:,(\d*))?\}/.exec(p.src.slice(p.i));
    if (!m) throw new Error("bad quantifier");
    const min = Number(m[1]);
    out = { min, max: m[2] === undefined ? min : m[2] === "" ? Infinity : Number(m[2]) };
    p.i += m[0].length;
  }
  if (p.src[p.i] === "?" && c !== undefined && "?*+{".includes(c)) p.i++;
  return out;
}

/**
 * A requirement in two levels, over sets of literals: any of the alternatives, each all of its parts, each part a
 * set of literals of which the text must hold one (the part's anchors). Deeper structure is flattened into the
 * sets, which keeps the check cheap and still only asks for what every match contains.
 */
type Compiled = number[][];

/** The two levels of a requirement: alternatives of parts. */
function levels(r: Requirement): Requirement[][] {
  const alternatives = typeof r !== "string" && "any" in r ? r.any : [r];
  return alternatives.map((a) => (typeof a !== "string" && "all" in a ? a.all : [a]));
}

/**
 * The automaton's alphabet: the canonical view's characters (a-z, 0-9, space) and one symbol for every other
 * character. Two other characters look alike to the automaton, so it may find a literal that is not there (the
 * rule then runs, as it would without a prefilter) but never misses one that is.
 */
const SYMBOLS = 38;
const SYMBOL = new Uint8Array(128);
for (let c = 0; c < 26; c++) SYMBOL[97 + c] = 1 + c;
for (let c = 0; c < 10; c++) SYMBOL[48 + c] = 27 + c;
SYMBOL[32] = 37;
const symbolOf = (code: number): number => (code < 128 ? (SYMBOL[code] as number) : 0);

/**
 * Aho-Corasick over every literal of every rule's requirement: one pass over a text tells which literals occur,
 * and a rule is a candidate when its requirement holds (all the parts of a sequence, any alternative of a group).
 * A rule's requirement is only evaluated once one of its cheapest anchors (anchorsOf) is seen.
 * @example new RuleIndex([/\bkill ?(?:myself|yourself)\b/]).candidates(" i want to kill time ").has(0) // false
 */
export class RuleIndex {
  private readonly literals = new Map<string, number>();
  /** Per literal: the sets (parts of requirements) it belongs to. */
  private readonly inSets: number[][] = [];
  private sets = 0;
  private readonly needs: (Compiled | null)[] = [];
  /** Per literal: the rules for which it is one of the cheapest anchors. */
  private readonly triggers: number[][] = [];
  /** The automaton as a full transition table (state x symbol) and, per state, the literals that end there. */
  private readonly next: Uint16Array | Uint32Array;
  private readonly out: number[][];
  /** Scan stamps: which literals and rules the text being scanned touched (nothing is cleared between scans). */
  private readonly seenLiteral: Uint32Array;
  private readonly seenRule: Uint32Array;
  private readonly seenSet: Uint32Array;
  private scan = 0;
  /** Rules that have no anchors and always run. */
  readonly always = new Set<number>();

  constructor(patterns: readonly RegExp[]) {
    const trie: Map<number, number>[] = [new Map()];
    const ends: number[][] = [[]];
    const literal = (word: string): number => {
      let id = this.literals.get(word);
      if (id !== undefined) return id;
      id = this.literals.size;
      this.literals.set(word, id);
      this.triggers.push([]);
      this.inSets.push([]);
      let state = 0;
      for (let i = 0; i < word.length; i++) {
        const sym = symbolOf(word.charCodeAt(i));
        let to = trie[state]?.get(sym);
        if (to === undefined) {
          to = trie.length;
          trie.push(new Map());
          ends.push([]);
          trie[state]?.set(sym, to);
        }
        state = to;
      }
      ends[state]?.push(id);
      return id;
    };
    const compile = (r: Requirement): Compiled =>
      levels(r).map((parts) =>
        parts.map((part) => {
          const set = this.sets++;
          for (const a of anchors(part) ?? []) this.inSets[literal(a)]?.push(set);
          return set;
        }),
      );
    patterns.forEach((re, rule) => {
      const need = requirementOf(re);
      this.needs.push(need === null ? null : compile(need));
      if (need === null) this.always.add(rule);
      else for (const a of anchors(need) ?? []) this.triggers[literal(a)]?.push(rule);
    });
    // Breadth first: each state's missing moves and its outputs come from its failure state, already complete.
    // ~7,700 states x 38 symbols: 16 bits a move while the states fit (0.6 MB a direction).
    this.next = trie.length <= 0xffff ? new Uint16Array(trie.length * SYMBOLS) : new Uint32Array(trie.length * SYMBOLS);
    this.out = ends.map((e) => [...e]);
    const fail = new Uint32Array(trie.length);
    const queue: number[] = [];
    for (const [sym, to] of trie[0] ?? []) {
      this.next[sym] = to;
      queue.push(to);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head] as number;
      const f = fail[state] as number;
      for (let sym = 0; sym < SYMBOLS; sym++) {
        const to = trie[state]?.get(sym);
        if (to === undefined) this.next[state * SYMBOLS + sym] = this.next[f * SYMBOLS + sym] as number;
        else {
          this.next[state * SYMBOLS + sym] = to;
          fail[to] = state === 0 ? 0 : (this.next[f * SYMBOLS + sym] as number);
          queue.push(to);
        }
      }
      this.out[state]?.push(...(this.out[f] ?? []));
    }
    this.seenLiteral = new Uint32Array(this.literals.size);
    this.seenSet = new Uint32Array(this.sets);
    this.seenRule = new Uint32Array(patterns.length);
  }

  private holds(need: Compiled): boolean {
    for (const parts of need) {
      let all = true;
      for (const set of parts) {
        if (this.seenSet[set] !== this.scan) {
          all = false;
          break;
        }
      }
      if (all) return true;
    }
    return false;
  }

  /** Indexes of the rules whose requirement the literals in `text` meet (rules in `always` are not included). */
  candidates(text: string): Set<number> {
    if (++this.scan === 0xffffffff) {
      this.seenLiteral.fill(0);
      this.seenRule.fill(0);
      this.seenSet.fill(0);
      this.scan = 1;
    }
    const scan = this.scan;
    const { next, out, triggers, seenLiteral, seenRule, inSets, seenSet } = this;
    const triggered: number[] = [];
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = next[state * SYMBOLS + symbolOf(text.charCodeAt(i))] as number;
      const ends = out[state] as number[];
      for (let j = 0; j < ends.length; j++) {
        const lit = ends[j] as number;
        if (seenLiteral[lit] === scan) continue;
        seenLiteral[lit] = scan;
        for (const set of inSets[lit] as number[]) seenSet[set] = scan;
        for (const rule of triggers[lit] as number[]) {
          if (seenRule[rule] === scan) continue;
          seenRule[rule] = scan;
          triggered.push(rule);
        }
      }
    }
    const found = new Set<number>();
    for (const rule of triggered) if (this.holds(this.needs[rule] as Compiled)) found.add(rule);
    return found;
  }
}

/**
 * A prefilter that keeps the rules fast: most rules cannot match most texts, and one scan finds which might.
 *
 * For each rule's regex we derive anchors: literal strings (2+ characters) such that every match of the regex
 * contains at least one of them. All anchors of all rules go into one Aho-Corasick automaton; a text is scanned
 * once, and only rules with an anchor in it are run (rules with no usable anchor always run).
 *
 * Rules it keeps:
 * - it is exact, never a guess: an anchor is taken only from parts every match must pass through (not from
 *   optional parts, not from lookarounds, not from character classes); when in doubt a rule has no anchors and
 *   always runs. The tests compare findings with and without the prefilter on every labelled line.
 * - it only decides whether to run a rule; the rule's own regex still decides the finding.
 */

type Anchors = string[] | null;

interface Parser {
  src: string;
  i: number;
}

const MIN = 2;

/** Anchors of a whole regex source: every top-level alternative must have some, else null. */
export function anchorsOf(re: RegExp): Anchors {
  if (re.flags.includes("i")) return null;
  const p: Parser = { src: re.source, i: 0 };
  try {
    const result = alternation(p);
    return p.i === p.src.length ? result : null;
  } catch {
    return null;
  }
}

/** alternation := sequence ("|" sequence)*; anchors = union, null if any alternative has none. */
function alternation(p: Parser): Anchors {
  const out = new Set<string>();
  let ok = true;
  for (;;) {
    const a = sequence(p);
    if (a === null) ok = false;
    else for (const s of a) out.add(s);
    if (p.src[p.i] === "|") {
      p.i++;
      continue;
    }
    return ok ? [...out] : null;
  }
}

interface Item {
  /** A literal character (or null for anything else). */
  ch: string | null;
  /** Anchors of a group that must match (null when it has none or may be skipped). */
  group: Anchors;
  /** Whether the item must match at least once. */
  required: boolean;
  /** Whether the item may repeat (ends a literal run after its first character). */
  repeats: boolean;
}

/** sequence := item*; the best anchor set among its required literal runs and required groups. */
function sequence(p: Parser): Anchors {
  const items: Item[] = [];
  while (p.i < p.src.length && p.src[p.i] !== "|" && p.src[p.i] !== ")") items.push(item(p));
  const candidates: string[][] = [];
  let run = "";
  const flush = (): void => {
    if (run.length >= MIN) candidates.push([run]);
    run = "";
  };
  for (const it of items) {
    if (it.ch !== null && it.required) {
      run += it.ch;
      if (it.repeats) flush();
      continue;
    }
    flush();
    if (it.group && it.required) candidates.push(it.group);
  }
  flush();
  if (candidates.length === 0) return null;
  // Fewest strings first (cheapest and most selective), then the longest shortest string.
  candidates.sort((a, b) => a.length - b.length || Math.min(...b.map((s) => s.length)) - Math.min(...a.map((s) => s.length)));
  return candidates[0] as string[];
}

function item(p: Parser): Item {
  const c = p.src[p.i] as string;
  let ch: string | null = null;
  let group: Anchors = null;
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
 * Aho-Corasick over every rule's anchors: one pass over a text tells which rules can possibly match it.
 * @example new RuleIndex([/\bkill ?myself\b/]).candidates(" i want to kill myself ").has(0) // true
 */
export class RuleIndex {
  private readonly goto: Map<string, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  private readonly out: number[][] = [[]];
  /** Rules that have no anchors and always run. */
  readonly always = new Set<number>();

  constructor(patterns: readonly RegExp[]) {
    patterns.forEach((re, rule) => {
      const anchors = anchorsOf(re);
      if (anchors === null || anchors.length === 0) {
        this.always.add(rule);
        return;
      }
      for (const a of anchors) this.add(a, rule);
    });
    this.link();
  }

  private add(word: string, rule: number): void {
    let state = 0;
    for (const ch of word) {
      let next = this.goto[state]?.get(ch);
      if (next === undefined) {
        next = this.goto.length;
        this.goto.push(new Map());
        this.fail.push(0);
        this.out.push([]);
        this.goto[state]?.set(ch, next);
      }
      state = next;
    }
    this.out[state]?.push(rule);
  }

  private link(): void {
    const queue: number[] = [];
    for (const next of this.goto[0]?.values() ?? []) queue.push(next);
    while (queue.length > 0) {
      const state = queue.shift() as number;
      for (const [ch, next] of this.goto[state] ?? []) {
        queue.push(next);
        let f = this.fail[state] as number;
        while (f !== 0 && !this.goto[f]?.has(ch)) f = this.fail[f] as number;
        const target = this.goto[f]?.get(ch);
        this.fail[next] = target !== undefined && target !== next ? target : 0;
        this.out[next]?.push(...(this.out[this.fail[next] as number] ?? []));
      }
    }
  }

  /** Indexes of the rules whose anchors occur in `text` (rules in `always` are not included). */
  candidates(text: string): Set<number> {
    const found = new Set<number>();
    let state = 0;
    for (const ch of text) {
      while (state !== 0 && !this.goto[state]?.has(ch)) state = this.fail[state] as number;
      state = this.goto[state]?.get(ch) ?? 0;
      for (const rule of this.out[state] ?? []) found.add(rule);
    }
    return found;
  }
}

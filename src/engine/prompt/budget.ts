/**
 * Fits a turn's prompt into the model's budget, counted in characters (a stand-in for tokens that needs no
 * tokenizer; roughly four characters a token for English).
 *
 * What always goes in: the preamble, the developer's prompt, the reminder and the child's words (each bounded
 * at the socket). What is cut to fit: the context and the remembered history. An app may send a long context
 * value (the Unity SDK's dialogues put the whole `conversation_history` there), so a long string keeps its end,
 * where apps append, behind a "…"; short values are kept whole (the cut falls on the longest values first). A
 * value used by a `{{placeholder}}` in the prompt counts once more for each use, since it is shown there too.
 */
import type { Context } from "../types.ts";

/** The default budget: 24,000 characters, about 6,000 tokens, well inside every current model's window. */
export const DEFAULT_PROMPT_BUDGET_CHARS = 24_000;

/** Marks the start of a value that was cut. */
export const CUT_MARK = "…";

/** Characters a context line adds around its key and value ("- key: value\n"). */
const LINE_OVERHEAD = 4;

interface Entry {
  key: string;
  value: Context[string];
  /** How often the value is shown: its context line plus each placeholder that uses it. */
  weight: number;
}

/**
 * `context` with its longest string values cut (keeping their end) so that showing it costs at most `budget`
 * characters; entries are dropped from the end only if even their keys do not fit.
 * @example fitContext({ conversation_history: "a\nb\n…long…", level: 3 }, new Map(), 200)
 */
export function fitContext(context: Context, uses: ReadonlyMap<string, number>, budget: number): Context {
  const entries: Entry[] = Object.entries(context).map(([key, value]) => ({ key, value, weight: 1 + (uses.get(key) ?? 0) }));
  if (cost(entries, Infinity) <= budget) return context;
  while (entries.length > 0 && cost(entries, 0) > budget) entries.pop();
  // The largest cap on string values that fits: a binary search over the longest value's length.
  let low = 0;
  let high = Math.max(0, ...entries.map((e) => (typeof e.value === "string" ? e.value.length : 0)));
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (cost(entries, mid) <= budget) low = mid;
    else high = mid - 1;
  }
  return Object.fromEntries(entries.map((e) => [e.key, typeof e.value === "string" ? cutToTail(e.value, low) : e.value]));
}

/** What showing `entries` costs when every string value is cut to at most `cap` characters. */
function cost(entries: readonly Entry[], cap: number): number {
  let total = 0;
  for (const { key, value, weight } of entries) {
    const length = typeof value === "string" ? Math.min(value.length, cap) : String(value).length;
    total += key.length + LINE_OVERHEAD + length * weight;
  }
  return total;
}

/**
 * The end of `text` in at most `max` characters, starting with CUT_MARK and, when one is near, at a line or
 * word boundary (so a history keeps whole lines).
 * @example cutToTail("one two three four", 12) // "…three four"
 */
export function cutToTail(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= CUT_MARK.length) return "";
  const start = text.length - (max - CUT_MARK.length);
  let tail = text.slice(start);
  const before = text[start - 1] as string;
  if (before === "\n") return CUT_MARK + tail;
  const line = tail.indexOf("\n");
  const space = /\s/.test(before) ? -1 : tail.search(/\s/);
  const boundary = line !== -1 && line < tail.length / 2 ? line : space !== -1 && space < 40 ? space : -1;
  if (boundary !== -1) tail = tail.slice(boundary + 1);
  return CUT_MARK + tail;
}

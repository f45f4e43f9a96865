/**
 * Builds the child-safety corpus (test/fixtures/safety/corpus-{inputs,outputs}-{dev,test}.jsonl) from the hand-written
 * source lines in test/fixtures/safety/corpus-src/{inputs,outputs}/<category>.txt. Run: `bun scripts/safety-corpus.ts`.
 *
 * Source format, one line each: `U text` unsafe, `E text` unsafe evasion written by hand, `N text` benign near miss,
 * `B text` benign (file `none.txt`). `{b64}` before a phrase base64-encodes the rest of the line.
 *
 * Deterministic: no randomness, only an FNV-1a hash of the source line. The hash puts ~70% of source lines in dev
 * and ~30% in test, and every machine-made variant of a line (zero-width characters, look-alike letters, fullwidth,
 * spacing, leetspeak, repeated letters, dotted letters, base64) goes to the same split as its source, so the test
 * split never holds a disguised copy of a dev line.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface Row {
  text: string;
  unsafe: boolean;
  category: string;
  kind: "plain" | "evasion" | "near_miss" | "benign";
}

const root = join(import.meta.dir, "../test/fixtures/safety");

/** FNV-1a 32-bit: stable across runs and platforms. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const b64 = (s: string): string => Buffer.from(s, "utf8").toString("base64");

const CYRILLIC: Record<string, string> = { a: "а", e: "е", o: "о", p: "р", c: "с", x: "х", y: "у", i: "і", s: "ѕ", k: "к" };
const LEET: Record<string, string> = { a: "4", e: "3", i: "1", o: "0", s: "5", t: "7" };

/** The longest one or two words: what a child who disguises a line usually disguises is its strong word. */
function longWords(text: string): string[] {
  const words = [...new Set(text.split(/\s+/).filter((w) => /^[a-z']{4,}$/i.test(w)))];
  return words.sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, 2);
}

function onWords(text: string, f: (w: string) => string): string {
  const targets = new Set(longWords(text));
  return text
    .split(/(\s+)/)
    .map((w) => (targets.has(w) ? f(w) : w))
    .join("");
}

const TRANSFORMS: Array<[string, (t: string, h: number) => string]> = [
  ["zero-width", (t) => onWords(t, (w) => [...w].join("\u200b"))],
  ["look-alike", (t, h) => [...t].map((ch, i) => (CYRILLIC[ch] !== undefined && (i + h) % 2 === 0 ? CYRILLIC[ch] : ch)).join("")],
  ["fullwidth", (t) => [...t].map((ch) => (ch >= "!" && ch <= "~" ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch === " " ? "\u3000" : ch)).join("")],
  ["spaced", (t) => onWords(t, (w) => [...w].join(" "))],
  ["leet", (t) => onWords(t, (w) => [...w].map((ch) => LEET[ch] ?? ch).join(""))],
  ["repeated", (t) => onWords(t, (w) => w.replace(/([aeiouy])/g, "$1$1$1"))],
  ["dotted", (t) => onWords(t, (w) => [...w].join("."))],
  ["shouted", (t) => `${t.toUpperCase()}!!!`],
  ["soft-hyphen", (t) => onWords(t, (w) => [...w].join("\u00ad"))],
  ["base64", (t) => b64(t)],
];

function parse(dir: string): Array<{ row: Row; source: string }> {
  const out: Array<{ row: Row; source: string }> = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".txt"))
    .sort()) {
    const category = file.replace(/\.txt$/, "");
    for (const raw of readFileSync(join(dir, file), "utf8").split("\n")) {
      if (raw.trim() === "") continue;
      const m = /^([UENB]) (.+)$/.exec(raw);
      if (m === null) throw new Error(`${file}: bad line ${JSON.stringify(raw)}`);
      const [, tag, body] = m as unknown as [string, string, string];
      const text = body.replace(/\{b64\}(.*)$/, (_, rest: string) => b64(rest));
      const unsafe = tag === "U" || tag === "E";
      const kind = tag === "U" ? "plain" : tag === "E" ? "evasion" : tag === "N" ? "near_miss" : "benign";
      out.push({ row: { text, unsafe, category: unsafe || tag === "N" ? category : "none", kind }, source: text });
    }
  }
  return out;
}

/** Machine-made variants: one in five unsafe lines, one in eight benign ones (a disguise must not make a line unsafe). */
function variants(rows: Array<{ row: Row; source: string }>, direction: "inputs" | "outputs"): Array<{ row: Row; source: string }> {
  const out: Array<{ row: Row; source: string }> = [];
  for (const { row } of rows) {
    if (row.kind === "evasion") continue;
    const h = fnv(`variant:${row.text}`);
    const every = row.unsafe ? (direction === "inputs" ? 5 : 8) : direction === "inputs" ? 8 : 12;
    if (h % every !== 0) continue;
    // Base64 in a child's input is itself a jailbreak signal (children do not type it), so benign lines are not
    // encoded; a model does not write spaced-out letters or base64.
    const pool =
      direction === "outputs"
        ? TRANSFORMS.filter(([n]) => n !== "base64" && n !== "spaced")
        : row.unsafe
          ? TRANSFORMS
          : TRANSFORMS.filter(([n]) => n !== "base64");
    const [, f] = pool[(h >>> 8) % pool.length] as [string, (t: string, h: number) => string];
    const text = f(row.text, h);
    if (text === row.text) continue;
    out.push({ row: { ...row, text, kind: row.unsafe ? "evasion" : row.kind }, source: row.text });
  }
  return out;
}

for (const direction of ["inputs", "outputs"] as const) {
  // corpus-src: the first hand-written set; corpus-src-a: a second set written blind by another member of the
  // team (same format; its benign lines in a category's file are near misses). A line both hold counts once.
  const first = parse(join(root, "corpus-src", direction));
  const known = new Set(first.map((r) => r.row.text));
  const base = [...first, ...parse(join(root, "corpus-src-a", direction)).filter((r) => !known.has(r.row.text) && known.add(r.row.text))];
  const all = [...base, ...variants(base, direction)];
  const seen = new Set<string>();
  const dev: Row[] = [];
  const test: Row[] = [];
  for (const { row, source } of all) {
    if (seen.has(row.text)) throw new Error(`duplicate line in ${direction}: ${row.text}`);
    seen.add(row.text);
    (fnv(`split:${source}`) % 100 < 70 ? dev : test).push(row);
  }
  for (const [name, rows] of [
    ["dev", dev],
    ["test", test],
  ] as const) {
    writeFileSync(join(root, `corpus-${direction}-${name}.jsonl`), `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
  }
  const count = (rows: Row[], unsafe: boolean): number => rows.filter((r) => r.unsafe === unsafe).length;
  console.log(
    `${direction}: dev ${dev.length} (${count(dev, true)} unsafe, ${count(dev, false)} benign), test ${test.length} (${count(test, true)} unsafe, ${count(test, false)} benign)`,
  );
}

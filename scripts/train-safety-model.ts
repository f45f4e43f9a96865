/**
 * Trains the child-safety classifier and writes src/engine/safety/detect/model/weights.json (generated: do not
 * edit; embedded in the binary by its import), then prints the blind-set table. Run: `bun run train:safety`.
 *
 * Data (scripts/safety-data.ts): every writer under test/fixtures/safety/train/, the older corpus (the *.jsonl
 * files, one more writer group), and the policies' own reply lines as benign model sentences. The blind sets are
 * read only to drop training lines that are near-copies of a blind line; no blind line is ever trained on or
 * used to choose anything here.
 *
 * Model: multinomial logistic regression (softmax over "none" and the 12 categories) on features.ts, trained by
 * AdaGrad over shuffled lines (fixed seed) with L2. `FAMILY=nb` trains multinomial naive Bayes on the same
 * features instead, for comparison (both are scored the same way; see docs/safety.md for the comparison).
 *
 * Rules: a rule that matched any benign training line becomes advisory (the model weighs it; it no longer decides
 * alone). Thresholds: each writer group is scored by a model trained without it (leave-one-writer-out), so the
 * thresholds are set on scores for words the model never saw from that writer, the situation of a new child. The
 * per-category thresholds are lowered greedily, the category buying the most recall per false alarm first,
 * until the false-alarm budgets below are spent; escalation thresholds sit above every benign score but a few in
 * ten thousand. Deterministic: fixed seed, fixed order.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CATEGORIES, type Direction } from "../src/engine/safety/detect/categories.ts";
import { ruleHits } from "../src/engine/safety/detect/detector.ts";
import { features } from "../src/engine/safety/detect/model/features.ts";
import { views } from "../src/engine/safety/detect/normalize.ts";
import { DEFAULT_LINES, FALLBACK_LINES, FIXED_LINES, OUTPUT_LINES } from "../src/engine/safety/policy/lines.ts";
import { dedupKey, type Kind, trainingLines } from "./safety-data.ts";

interface Row {
  text: string;
  label: number;
  direction: Direction;
  kind: Kind | "corpus-benign" | "policy-line";
  group: string;
}

const FAMILY = process.env.FAMILY ?? "lr";
const EPOCHS = Number(process.env.EPOCHS ?? 15);
const L2 = Number(process.env.L2 ?? 1e-4);
const LR = Number(process.env.LR ?? 0.5);
// A feature must occur in this many training lines to get a weight: word pairs and triples, which are many and
// mostly rare, need more (this keeps the weights file a few megabytes and changed out-of-writer recall by <0.2).
const MIN_COUNT = Number(process.env.MIN_COUNT ?? 2);
const MIN_COUNT_PAIR = Number(process.env.MIN_COUNT_PAIR ?? 3);
const MIN_COUNT_TRIPLE = Number(process.env.MIN_COUNT_TRIPLE ?? 4);
const minCount = (f: string): number => (f.startsWith("b ") ? MIN_COUNT_PAIR : f.startsWith("t ") ? MIN_COUNT_TRIPLE : MIN_COUNT);
const PRUNE = 0.01;
const MIN_WORDS = 3;
// False-alarm budgets for the model's own share on out-of-writer scores (the deciding rules' share comes on top,
// and unseen writers run a little worse than out-of-writer scores): goals are 1% everyday, 3% near misses, 2%
// benign model sentences.
const BUDGET = {
  everyday: Number(process.env.FA_EVERYDAY ?? 0.007),
  nearMiss: Number(process.env.FA_NEAR ?? 0.02),
  output: Number(process.env.FA_OUTPUT ?? 0.015),
};
// Benign lines per ten thousand allowed above an escalation threshold, which is never below SURE_MIN.
const SURE_PER_10K = 2;
const SURE_MIN = 0.85;

const CLASSES = ["none", ...CATEGORIES.filter((c) => c !== "custom")];
const classOf = (label: string): number => (label === "none" ? 0 : Math.max(1, CLASSES.indexOf(label)));

// ---- data ----------------------------------------------------------------------------------------------------
const rows: Row[] = trainingLines().map((l) => ({ text: l.text, label: classOf(l.label), direction: l.direction, kind: l.kind, group: l.group }));
const seen = new Set(rows.map((r) => `${r.direction} ${dedupKey(r.text)}`));
const add = (r: Row): void => {
  if (!seen.has(`${r.direction} ${dedupKey(r.text)}`)) rows.push(r);
};
for (const line of new Set(
  [...Object.values(DEFAULT_LINES), ...Object.values(FIXED_LINES), ...Object.values(OUTPUT_LINES), FALLBACK_LINES].flat() as string[],
)) {
  add({ text: line, label: 0, direction: "output", kind: "policy-line", group: "lines" });
}
const groups = [...new Set(rows.map((r) => r.group))].filter((g) => g !== "lines");
console.log(
  `${rows.length} training lines (${rows.filter((r) => r.direction === "input").length} inputs, ${rows.filter((r) => r.direction === "output").length} model sentences) from ${groups.length} writer groups: ${groups.join(", ")}`,
);

// ---- rules: which may decide alone --------------------------------------------------------------------------
const fired = rows.map((r) => ruleHits(r.text, r.direction).map((f) => f.rule));
// A rule may decide alone when it matched at most MAX_BENIGN benign lines of the training writers and at least
// MIN_PRECISION of the lines it matched were unsafe; the others are advisory (features the model weighs).
const MAX_BENIGN = Number(process.env.MAX_BENIGN ?? 0);
const MIN_PRECISION = Number(process.env.MIN_PRECISION ?? 1);
function ruleCounts(include: (i: number) => boolean): { benign: Map<string, number>; unsafe: Map<string, number> } {
  const benign = new Map<string, number>();
  const unsafe = new Map<string, number>();
  rows.forEach((r, i) => {
    if (!include(i)) return;
    const table = r.label === 0 ? benign : unsafe;
    for (const id of new Set(fired[i])) table.set(id, (table.get(id) ?? 0) + 1);
  });
  return { benign, unsafe };
}
function advisoryOf(counts: { benign: Map<string, number>; unsafe: Map<string, number> }): Set<string> {
  const out = new Set<string>();
  for (const [id, b] of counts.benign) {
    const u = counts.unsafe.get(id) ?? 0;
    if (b > MAX_BENIGN || u / (u + b) < MIN_PRECISION) out.add(id);
  }
  return out;
}
const all = ruleCounts(() => true);
const advisory = [...advisoryOf(all)].sort();
// Per row: does a deciding rule fire? For out-of-writer scores, judged by the rules' counts without that writer.
const decides = new Uint8Array(rows.length);
const deciding = (i: number): boolean => decides[i] === 1;
console.log(`${advisory.length} rules become advisory; ${all.unsafe.size} rules matched unsafe lines`);
if (process.env.DEBUG) for (const id of advisory) console.log(`  advisory ${id}: ${all.benign.get(id)} benign, ${all.unsafe.get(id) ?? 0} unsafe`);

// ---- features -------------------------------------------------------------------------------------------------
const canons = rows.map((r) => views(r.text).canon);
const wordCount = canons.map((c) => c.trim().split(" ").filter(Boolean).length);
const feats = rows.map((r, i) => features(canons[i] as string, r.direction, fired[i]));

interface Model {
  vocab: Map<string, number>;
  w: Float64Array;
  b: Float64Array;
}
const K = CLASSES.length;

function vocabulary(idx: number[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const i of idx) for (const f of feats[i] as string[]) counts.set(f, (counts.get(f) ?? 0) + 1);
  const vocab = new Map<string, number>();
  for (const [f, n] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (n >= minCount(f)) vocab.set(f, vocab.size);
  return vocab;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s ^= s + Math.imul(s ^ (s >>> 7), 61 | s);
    return ((s ^ (s >>> 14)) >>> 0) / 4294967296;
  };
}

function trainLR(idx: number[]): Model {
  const vocab = vocabulary(idx);
  const w = new Float64Array(vocab.size * K);
  const b = new Float64Array(K);
  const gw = new Float64Array(vocab.size * K).fill(1e-8);
  const gb = new Float64Array(K).fill(1e-8);
  const xs = idx.map((i) => (feats[i] as string[]).flatMap((f) => (vocab.has(f) ? [vocab.get(f) as number] : [])));
  const scales = idx.map((i) => 1 / Math.sqrt((feats[i] as string[]).length));
  const ys = idx.map((i) => (rows[i] as Row).label);
  const order = idx.map((_, n) => n);
  const random = rng(42);
  const p = new Float64Array(K);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let n = order.length - 1; n > 0; n--) {
      const m = Math.floor(random() * (n + 1));
      [order[n], order[m]] = [order[m] as number, order[n] as number];
    }
    for (const n of order) {
      const x = xs[n] as number[];
      const scale = scales[n] as number;
      let max = -Infinity;
      for (let k = 0; k < K; k++) {
        let s = b[k] as number;
        for (const j of x) s += (w[j * K + k] as number) * scale;
        p[k] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let k = 0; k < K; k++) sum += p[k] = Math.exp((p[k] as number) - max);
      for (let k = 0; k < K; k++) {
        const g = (p[k] as number) / sum - (k === ys[n] ? 1 : 0);
        gb[k] = (gb[k] as number) + g * g;
        b[k] = (b[k] as number) - (LR * g) / Math.sqrt(gb[k] as number);
        for (const j of x) {
          const at = j * K + k;
          const gj = g * scale + L2 * (w[at] as number);
          gw[at] = (gw[at] as number) + gj * gj;
          w[at] = (w[at] as number) - (LR * gj) / Math.sqrt(gw[at] as number);
        }
      }
    }
  }
  return { vocab, w, b };
}

/** Multinomial naive Bayes on the same binary features (log-probabilities in w, log-priors in b). */
function trainNB(idx: number[]): Model {
  const vocab = vocabulary(idx);
  const counts = new Float64Array(vocab.size * K);
  const totals = new Float64Array(K);
  const docs = new Float64Array(K);
  for (const i of idx) {
    const y = (rows[i] as Row).label;
    docs[y] = (docs[y] as number) + 1;
    for (const f of feats[i] as string[]) {
      const j = vocab.get(f);
      if (j === undefined) continue;
      counts[j * K + y] = (counts[j * K + y] as number) + 1;
      totals[y] = (totals[y] as number) + 1;
    }
  }
  const w = new Float64Array(vocab.size * K);
  for (let j = 0; j < vocab.size; j++)
    for (let k = 0; k < K; k++) w[j * K + k] = Math.log(((counts[j * K + k] as number) + 0.5) / ((totals[k] as number) + 0.5 * vocab.size));
  const b = new Float64Array(K);
  for (let k = 0; k < K; k++) b[k] = Math.log(((docs[k] as number) + 1) / (idx.length + K));
  return { vocab, w, b };
}

/** Class probabilities of one row under a model, exactly as classifier.ts computes them (NB without the scale). */
function probs(model: Model, i: number): Float64Array {
  const f = feats[i] as string[];
  const s = Float64Array.from(model.b);
  const scale = FAMILY === "nb" ? 1 : 1 / Math.sqrt(f.length);
  for (const name of f) {
    const j = model.vocab.get(name);
    if (j === undefined) continue;
    for (let k = 0; k < K; k++) s[k] = (s[k] as number) + (model.w[j * K + k] as number) * scale;
  }
  let max = -Infinity;
  for (const v of s) if (v > max) max = v;
  let sum = 0;
  for (let k = 0; k < K; k++) sum += s[k] = Math.exp((s[k] as number) - max);
  for (let k = 0; k < K; k++) s[k] = (s[k] as number) / sum;
  return s;
}

const train = FAMILY === "nb" ? trainNB : trainLR;

// ---- out-of-writer scores -----------------------------------------------------------------------------------
const oofP = new Float64Array(rows.length);
const oofK = new Int32Array(rows.length);
for (const g of groups) {
  const t0 = performance.now();
  const held = advisoryOf(ruleCounts((i) => (rows[i] as Row).group !== g));
  rows.forEach((r, i) => {
    if (r.group === g) decides[i] = (fired[i] as string[]).some((id) => !held.has(id)) ? 1 : 0;
  });
  const model = train(rows.map((_, i) => i).filter((i) => (rows[i] as Row).group !== g));
  rows.forEach((r, i) => {
    if (r.group !== g) return;
    const p = probs(model, i);
    let best = 1;
    for (let k = 2; k < K; k++) if ((p[k] as number) > (p[best] as number)) best = k;
    const short = (fired[i] as string[]).length === 0 && (wordCount[i] as number) < MIN_WORDS;
    oofP[i] = short ? 0 : 1 - (p[0] as number);
    oofK[i] = best;
  });
  console.log(`  held out ${g}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

// ---- thresholds ----------------------------------------------------------------------------------------------
type Bucket = "everyday" | "nearMiss" | "output";
const bucketOf = (r: Row): Bucket | null => (r.label !== 0 ? null : r.direction === "output" ? "output" : r.kind === "everyday" ? "everyday" : "nearMiss");
const thresholds: Record<Direction, Record<string, number>> = { input: {}, output: {} };
const sure: Record<Direction, Record<string, number>> = { input: {}, output: {} };
const STEPS = Array.from({ length: 90 }, (_, n) => Math.round((0.99 - n * 0.01) * 100) / 100);

for (const d of ["input", "output"] as const) {
  const idx = rows.map((_, i) => i).filter((i) => (rows[i] as Row).direction === d && (rows[i] as Row).group !== "lines");
  const benignOf = (b: Bucket): number[] => idx.filter((i) => bucketOf(rows[i] as Row) === b);
  const buckets: Bucket[] = d === "input" ? ["everyday", "nearMiss"] : ["output"];
  const size = Object.fromEntries(buckets.map((b) => [b, benignOf(b).length])) as Record<Bucket, number>;
  // The budget is the model's own: the deciding rules' false alarms come on top (they matched no benign training line).
  const spent = Object.fromEntries(buckets.map((b) => [b, 0])) as Record<Bucket, number>;
  const t: Record<string, number> = Object.fromEntries(CLASSES.slice(1).map((c) => [c, 1]));
  const flagged = (i: number): boolean => !deciding(i) && (oofP[i] as number) >= (t[CLASSES[oofK[i] as number] as string] as number);
  const gain = (c: string, to: number): { tp: number; fa: Record<Bucket, number> } => {
    const k = CLASSES.indexOf(c);
    const fa = Object.fromEntries(buckets.map((b) => [b, 0])) as Record<Bucket, number>;
    let tp = 0;
    for (const i of idx) {
      if (oofK[i] !== k || deciding(i)) continue;
      const p = oofP[i] as number;
      if (p >= (t[c] as number) || p < to) continue;
      const b = bucketOf(rows[i] as Row);
      if (b) fa[b]++;
      else tp++;
    }
    return { tp, fa };
  };
  for (;;) {
    let best: { c: string; to: number; ratio: number } | null = null;
    for (const c of CLASSES.slice(1)) {
      for (const to of STEPS) {
        if (to >= (t[c] as number)) continue;
        const g = gain(c, to);
        if (g.tp === 0) continue;
        const over = buckets.some((b) => (spent[b] + g.fa[b]) / size[b] > BUDGET[b]);
        if (over) break;
        const cost = buckets.reduce((a, b) => a + g.fa[b] / size[b] / BUDGET[b], 0);
        const ratio = g.tp / (cost + 1e-6);
        if (!best || ratio > best.ratio) best = { c, to, ratio };
      }
    }
    if (!best) break;
    const g = gain(best.c, best.to);
    for (const b of buckets) spent[b] += g.fa[b];
    t[best.c] = best.to;
  }
  thresholds[d] = t;
  if (process.env.DUMP_MISSES) {
    // Out-of-writer misses and false alarms of training lines (never blind ones), to study what the detector misses.
    const lines = idx.filter((i) => ((rows[i] as Row).label !== 0) !== (deciding(i) || flagged(i)));
    const text = lines.map(
      (i) =>
        `${(rows[i] as Row).label !== 0 ? "MISS" : "FALSE"}\t${CLASSES[(rows[i] as Row).label]}\t${(oofP[i] as number).toFixed(2)}\t${CLASSES[oofK[i] as number]}\t${(rows[i] as Row).group}\t${(rows[i] as Row).text}`,
    );
    writeFileSync(`${process.env.DUMP_MISSES}.${d}.tsv`, `${text.join("\n")}\n`);
  }
  // Escalation: above all but SURE_PER_10K of the benign lines named with the category (never below its threshold).
  const benign = idx.filter((i) => (rows[i] as Row).label === 0);
  for (const c of CLASSES.slice(1)) {
    const k = CLASSES.indexOf(c);
    const scoresOf = benign
      .filter((i) => oofK[i] === k)
      .map((i) => oofP[i] as number)
      .sort((a, b) => b - a);
    const allowed = Math.floor((benign.length * SURE_PER_10K) / 10000);
    const above = scoresOf[allowed] ?? 0;
    sure[d][c] = Math.min(0.999, Math.max(t[c] as number, SURE_MIN, Math.ceil((above + 0.001) * 1000) / 1000));
  }
  const unsafe = idx.filter((i) => (rows[i] as Row).label !== 0);
  const caught = unsafe.filter((i) => deciding(i) || flagged(i)).length;
  const fa = buckets.map((b) => {
    const lines = benignOf(b);
    const held = lines.filter((i) => deciding(i) || flagged(i)).length;
    return `${b} ${((held / lines.length) * 100).toFixed(2)}% (${held}/${lines.length})`;
  });
  console.log(`${d}: out-of-writer recall ${((caught / unsafe.length) * 100).toFixed(1)}% (${caught}/${unsafe.length}), false alarms ${fa.join(", ")}`);
  console.log(
    `  thresholds ${CLASSES.slice(1)
      .map((c) => `${c} ${t[c]}`)
      .join(", ")}`,
  );
  console.log(
    `  escalate at ${CLASSES.slice(1)
      .map((c) => `${c} ${sure[d][c]}`)
      .join(", ")}`,
  );
}

// ---- the shipped model ----------------------------------------------------------------------------------------
const model = train(rows.map((_, i) => i));
// Compact form: feature names one a line, and their weights as signed bytes (per-class scale), base64.
const names: string[] = [];
const rowsOut: number[][] = [];
for (const [f, j] of model.vocab) {
  const row = Array.from(model.w.subarray(j * K, (j + 1) * K));
  if (Math.max(...row.map(Math.abs)) < PRUNE) continue;
  names.push(f);
  rowsOut.push(row);
}
const scale = CLASSES.map((_, k) => Math.max(...rowsOut.map((r) => Math.abs(r[k] as number))) / 127);
const bytes = new Int8Array(rowsOut.length * K);
rowsOut.forEach((r, n) => r.forEach((v, k) => (bytes[n * K + k] = Math.round(v / (scale[k] as number)))));
if (process.env.DRY_RUN) process.exit(0);
const out = {
  note: "Generated by scripts/train-safety-model.ts (bun run train:safety). Do not edit.",
  family: FAMILY,
  classes: CLASSES,
  minWords: MIN_WORDS,
  thresholds,
  sure,
  advisory,
  bias: Array.from(model.b).map((v) => Math.round(v * 10000) / 10000),
  scale: scale.map((v) => Number(v.toPrecision(6))),
  names: names.join("\n"),
  weights: Buffer.from(bytes.buffer).toString("base64"),
};
const target = join(import.meta.dir, "../src/engine/safety/detect/model/weights.json");
if (process.argv.includes("--check")) {
  // Reproducibility: the weights in the repository are exactly what this script produces from the data.
  const same = readFileSync(target, "utf8") === `${JSON.stringify(out)}\n`;
  console.log(same ? "weights.json is what the trainer produces" : "weights.json differs from what the trainer produces: run bun run train:safety");
  process.exit(same ? 0 : 1);
}
writeFileSync(target, `${JSON.stringify(out)}\n`);
console.log(`wrote ${names.length} features`);
// The blind-set table, from a fresh process that loads the weights just written (bench/safety.ts with no timing).
Bun.spawnSync([process.execPath, join(import.meta.dir, "../bench/safety.ts"), "0"], { stdout: "inherit", stderr: "inherit" });

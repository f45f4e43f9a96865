/**
 * Trains the child-safety classifier and writes its weights to src/engine/safety/detect/model/weights.json
 * (generated: do not edit; embedded in the binary like any import). Run: `bun scripts/train-safety-model.ts`.
 *
 * Data: the labelled lines in test/fixtures/safety/ except the corpus test split (corpus-*-test.jsonl), which is
 * kept out so the bench and the tests measure the model on lines it never saw, plus the policies' own reply lines
 * as benign model sentences (they must always pass the output check). Model: multinomial logistic
 * regression (softmax over "none" and the 12 categories) on features.ts, trained by full-batch Adam with L2.
 * Threshold: 5-fold cross-validation gives every training line a score from a model that did not see it; the
 * threshold per direction is the lowest that keeps the out-of-fold false alarms on benign lines (rules and model
 * together) at or under TARGET_FALSE_ALARM and the model's own at or under MODEL_FALSE_ALARM. Deterministic: fixed fold assignment, zero initial weights.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CATEGORIES, type Direction } from "../src/engine/safety/detect/categories.ts";
import { detectRulesOnly } from "../src/engine/safety/detect/detector.ts";
import { views } from "../src/engine/safety/detect/normalize.ts";
import { hasEvidence } from "../src/engine/safety/detect/model/concepts.ts";
import { features } from "../src/engine/safety/detect/model/features.ts";
import { DEFAULT_LINES, FALLBACK_LINES, FIXED_LINES, OUTPUT_LINES } from "../src/engine/safety/policy/lines.ts";

interface Row {
  text: string;
  unsafe: boolean;
  category: string;
  direction: Direction;
}

// Inputs 2.5%, outputs 2%: once the rules' own false alarms on the training lines fell (rules/phrasings.ts and the
// everyday senses), the out-of-fold recall of rules and model together was 95.5% for inputs at 2.5% as at 3%, and
// 99.4% for outputs at 2% against 99.7% at 3%, while at 3% everyday model sentences ("Tell me more about your
// friend!", "Nice to meet you.") were held back: the extra budget bought little but false alarms.
const TARGET_FALSE_ALARM: Record<Direction, number> = { input: Number(process.env.FA_INPUT ?? 0.025), output: Number(process.env.FA_OUTPUT ?? 0.02) };
// The model's own share of that budget (benign lines the rules pass but the model holds back) is capped too, at
// what it was when the targets above were set (rules' own false alarms on the training lines then: inputs 1.05%,
// outputs 0.70%, so the model had 1.45% and 1.3%). The rules are written from these lines, so their false alarms
// here understate those on unseen text; without the cap, every rule fix that removed a training false alarm handed
// the model the freed budget and the threshold fell, trading held-out false alarms for training-set figures.
const MODEL_FALSE_ALARM: Record<Direction, number> = { input: Number(process.env.MODEL_FA_INPUT ?? 0.0145), output: Number(process.env.MODEL_FA_OUTPUT ?? 0.013) };
const L2 = Number(process.env.L2 ?? 3e-6);
const EPOCHS = Number(process.env.EPOCHS ?? 400);
const MIN_COUNT = 2;
const PRUNE = 0.02;

const dir = join(import.meta.dir, "../test/fixtures/safety");
const CLASSES = ["none", ...CATEGORIES.filter((c) => c !== "custom")];
const rows: Row[] = readdirSync(dir)
  .filter((f) => f.endsWith(".jsonl") && !f.includes("-test"))
  .sort()
  .flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .trim()
      .split("\n")
      .map((l) => ({ ...(JSON.parse(l) as Omit<Row, "direction">), direction: (f.includes("output") ? "output" : "input") as Direction })),
  );

const fnv = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
};

// The policies' own lines are model sentences that must always pass: they are benign training lines.
for (const line of new Set([...Object.values(DEFAULT_LINES), ...Object.values(FIXED_LINES), ...Object.values(OUTPUT_LINES), FALLBACK_LINES].flat() as string[])) {
  rows.push({ text: line, unsafe: false, category: "none", direction: "output" });
}

const label = (r: Row): number => (r.unsafe ? Math.max(1, CLASSES.indexOf(r.category)) : 0);
const canons = rows.map((r) => views(r.text).canon);
const feats = rows.map((r, i) => features(canons[i] as string, r.direction));

interface Model {
  vocab: Map<string, number>;
  w: Float64Array; // vocab.size x classes
  b: Float64Array;
}

function train(idx: number[]): Model {
  const counts = new Map<string, number>();
  for (const i of idx) for (const f of feats[i] as string[]) counts.set(f, (counts.get(f) ?? 0) + 1);
  const vocab = new Map<string, number>();
  for (const [f, n] of counts) if (n >= MIN_COUNT) vocab.set(f, vocab.size);
  const K = CLASSES.length;
  const w = new Float64Array(vocab.size * K);
  const b = new Float64Array(K);
  const mw = new Float64Array(w.length), vw = new Float64Array(w.length), mb = new Float64Array(K), vb = new Float64Array(K);
  const ids = idx.map((i) => (feats[i] as string[]).flatMap((f) => (vocab.has(f) ? [vocab.get(f) as number] : [])));
  // Scaled by the number of features the text has (known or not), so the detector, which only keeps the pruned
  // weights, computes the same score.
  const scales = idx.map((i) => 1 / Math.sqrt((feats[i] as string[]).length));
  const ys = idx.map((i) => label(rows[i] as Row));
  const lr = 0.05, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  const gw = new Float64Array(w.length), gb = new Float64Array(K);
  const scores = new Float64Array(K);
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    gw.fill(0);
    gb.fill(0);
    for (let n = 0; n < ids.length; n++) {
      const x = ids[n] as number[];
      const scale = scales[n] as number;
      for (let k = 0; k < K; k++) {
        let s = b[k] as number;
        for (const j of x) s += (w[j * K + k] as number) * scale;
        scores[k] = s;
      }
      let max = -Infinity;
      for (let k = 0; k < K; k++) max = Math.max(max, scores[k] as number);
      let sum = 0;
      for (let k = 0; k < K; k++) sum += scores[k] = Math.exp((scores[k] as number) - max);
      for (let k = 0; k < K; k++) {
        const g = (scores[k] as number) / sum - (k === ys[n] ? 1 : 0);
        gb[k] = (gb[k] as number) + g;
        for (const j of x) gw[j * K + k] = (gw[j * K + k] as number) + g * scale;
      }
    }
    const m = ids.length;
    const t1 = 1 - b1 ** epoch, t2 = 1 - b2 ** epoch;
    for (let i = 0; i < w.length; i++) {
      const g = (gw[i] as number) / m + L2 * (w[i] as number);
      mw[i] = b1 * (mw[i] as number) + (1 - b1) * g;
      vw[i] = b2 * (vw[i] as number) + (1 - b2) * g * g;
      w[i] = (w[i] as number) - (lr * ((mw[i] as number) / t1)) / (Math.sqrt((vw[i] as number) / t2) + eps);
    }
    for (let k = 0; k < K; k++) {
      const g = (gb[k] as number) / m;
      mb[k] = b1 * (mb[k] as number) + (1 - b1) * g;
      vb[k] = b2 * (vb[k] as number) + (1 - b2) * g * g;
      b[k] = (b[k] as number) - (lr * ((mb[k] as number) / t1)) / (Math.sqrt((vb[k] as number) / t2) + eps);
    }
  }
  return { vocab, w, b };
}

/** P(unsafe) and the most likely unsafe class of one row under a model (0 under three words, as in the detector). */
function score(model: Model, f: string[]): { p: number; k: number } {
  if (f.filter((s) => s.startsWith("w ")).length < 3) return { p: 0, k: 1 };
  const K = CLASSES.length;
  const x = f.flatMap((s) => (model.vocab.has(s) ? [model.vocab.get(s) as number] : []));
  const scale = 1 / Math.sqrt(f.length);
  const s = Array.from(model.b);
  for (const j of x) for (let k = 0; k < K; k++) s[k] = (s[k] as number) + (model.w[j * K + k] as number) * scale;
  const max = Math.max(...s);
  const e = s.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, v) => a + v, 0);
  let k = 1;
  for (let c = 2; c < K; c++) if ((e[c] as number) > (e[k] as number)) k = c;
  return { p: 1 - (e[0] as number) / sum, k };
}

// Out-of-fold scores for the threshold.
const folds = 5;
const oof = new Array<number>(rows.length).fill(0);
for (let f = 0; f < folds; f++) {
  const trainIdx = rows.map((_, i) => i).filter((i) => fnv((rows[i] as Row).text) % folds !== f);
  const model = train(trainIdx);
  rows.forEach((r, i) => {
    if (fnv(r.text) % folds !== f) return;
    // As in the detector: a score counts only when the text carries evidence for the category it names.
    const s = score(model, feats[i] as string[]);
    oof[i] = hasEvidence(CLASSES[s.k] as string, (canons[i] as string).trim().split(" ")) ? s.p : 0;
  });
  console.log(`fold ${f + 1}/${folds} done`);
}
const ruled = rows.map((r) => detectRulesOnly(r.text, r.direction).length > 0);
for (const d of ["input", "output"] as const) {
  const idx = rows.map((_, i) => i).filter((i) => (rows[i] as Row).direction === d);
  const b = idx.filter((i) => !(rows[i] as Row).unsafe).map((i) => oof[i] as number).sort((x, y) => y - x);
  const u = idx.filter((i) => (rows[i] as Row).unsafe);
  const at = (fa: number): string => {
    const t = b[Math.floor(fa * b.length)] ?? 1;
    return `${(fa * 100).toFixed(0)}%FA: t=${t.toFixed(2)} model ${((u.filter((i) => (oof[i] as number) > t).length / u.length) * 100).toFixed(1)}% rules+model ${((u.filter((i) => ruled[i] || (oof[i] as number) > t).length / u.length) * 100).toFixed(1)}%`;
  };
  console.log(d, [0.01, 0.02, 0.03, 0.05].map(at).join(" | "));
}
const thresholds: Record<Direction, number> = { input: 0.5, output: 0.5 };
for (const d of ["input", "output"] as const) {
  const idx = rows.map((_, i) => i).filter((i) => (rows[i] as Row).direction === d);
  const benign = idx.filter((i) => !(rows[i] as Row).unsafe);
  const unsafe = idx.filter((i) => (rows[i] as Row).unsafe);
  let best = 0.99;
  for (let t = 0.99; t >= 0.05; t -= 0.01) {
    const fa = benign.filter((i) => ruled[i] || (oof[i] as number) >= t).length / benign.length;
    const own = benign.filter((i) => !ruled[i] && (oof[i] as number) >= t).length / benign.length;
    if (fa <= TARGET_FALSE_ALARM[d] && own <= MODEL_FALSE_ALARM[d]) best = t;
  }
  thresholds[d] = Math.round(best * 100) / 100;
  const rec = (t: number, withRules: boolean): string => `${((unsafe.filter((i) => (withRules && ruled[i]) || (oof[i] as number) >= t).length / unsafe.length) * 100).toFixed(1)}%`;
  const fa = benign.filter((i) => ruled[i] || (oof[i] as number) >= thresholds[d]).length / benign.length;
  console.log(`${d}: threshold ${thresholds[d]}, out-of-fold recall model ${rec(thresholds[d], false)}, rules+model ${rec(thresholds[d], true)}, false alarms ${(fa * 100).toFixed(1)}%`);
}

// The shipped model: all training lines, weights pruned and rounded.
const model = train(rows.map((_, i) => i));
const K = CLASSES.length;
const weights: Record<string, number[]> = {};
for (const [f, j] of model.vocab) {
  const row = Array.from(model.w.subarray(j * K, (j + 1) * K));
  if (Math.max(...row.map(Math.abs)) < PRUNE) continue;
  weights[f] = row.map((v) => Math.round(v * 1000) / 1000);
}
const out = {
  note: "Generated by scripts/train-safety-model.ts from test/fixtures/safety (corpus test split excluded). Do not edit.",
  classes: CLASSES,
  thresholds,
  bias: Array.from(model.b).map((v) => Math.round(v * 1000) / 1000),
  weights,
};
writeFileSync(join(import.meta.dir, "../src/engine/safety/detect/model/weights.json"), `${JSON.stringify(out)}\n`);
console.log(`wrote ${Object.keys(weights).length} features (${rows.length} training lines)`);

/**
 * Child-safety checks: time per sentence and precision/recall per category. Run: `bun run bench:safety`.
 *
 * Runs in the process it is started in (a fresh one with `bun run`), over the labelled sets in
 * test/fixtures/safety. Timing: every line is checked once to warm up, then each line `rounds` times; p50/p99
 * are over single checks (input: detection + redaction + decision; output: the same on a model sentence).
 * Precision/recall per category use the built-in default policy: a line counts as caught for its category
 * when the policy intercepted it (any category), and as a false alarm for a category when a benign line was
 * intercepted for that category.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CATEGORIES, builtinPolicy, warmUpSafety } from "../src/engine/safety/checks.ts";

interface Row {
  text: string;
  unsafe: boolean;
  category: string;
}

const rounds = Number(process.argv[2] ?? 20);
const dir = join(import.meta.dir, "../test/fixtures/safety");
const load = (prefix: string): Row[] =>
  readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith(".jsonl"))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Row));

const inputs = load("inputs");
const outputs = load("outputs");
const coldStart = performance.now();
warmUpSafety();
const policy = builtinPolicy("default")!;
const coldMs = performance.now() - coldStart;

function time(rows: Row[], check: (t: string) => unknown): { p50: number; p95: number; p99: number; max: number } {
  for (const r of rows) check(r.text);
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const r of rows) {
      const t0 = performance.now();
      check(r.text);
      samples.push(performance.now() - t0);
    }
  }
  samples.sort((a, b) => a - b);
  const at = (q: number): number => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: samples[samples.length - 1] as number };
}

const inTime = time(inputs, (t) => policy.checkInput(t));
const outTime = time(outputs, (t) => policy.checkOutput(t));

console.log(`\nChild-safety checks (${inputs.length} input lines, ${outputs.length} output lines, ${rounds} rounds; first policy build ${coldMs.toFixed(1)} ms)\n`);
console.log("| check | p50 ms | p95 ms | p99 ms | max ms | target p99 |");
console.log("|---|---|---|---|---|---|");
console.log(`| input (child's message) | ${inTime.p50.toFixed(3)} | ${inTime.p95.toFixed(3)} | ${inTime.p99.toFixed(3)} | ${inTime.max.toFixed(2)} | < 1 ms |`);
console.log(`| output (one model sentence) | ${outTime.p50.toFixed(3)} | ${outTime.p95.toFixed(3)} | ${outTime.p99.toFixed(3)} | ${outTime.max.toFixed(2)} | < 1 ms |`);
console.log(`\n(load average now ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")} on ${(await import("node:os")).cpus().length} cores: spikes above p95 follow the machine's load)`);

function table(rows: Row[], direction: "input" | "output"): void {
  const results = rows.map((r) => {
    const v = direction === "input" ? policy.checkInput(r.text) : policy.checkOutput(r.text);
    return { row: r, caught: v.intercepted.length > 0, categories: v.intercepted as string[] };
  });
  console.log(`\n${direction === "input" ? "Child inputs" : "Model sentences"} (default policy)\n`);
  console.log("| category | unsafe lines | recall | benign near-misses | false alarms | precision |");
  console.log("|---|---|---|---|---|---|");
  let tp = 0;
  let fn = 0;
  let fp = 0;
  let benign = 0;
  for (const c of CATEGORIES) {
    const unsafe = results.filter((r) => r.row.unsafe && r.row.category === c);
    const near = results.filter((r) => !r.row.unsafe && r.row.category === c).length;
    if (unsafe.length === 0 && near === 0) continue;
    const caught = unsafe.filter((r) => r.caught).length;
    const alarms = results.filter((r) => !r.row.unsafe && r.categories.includes(c)).length;
    const flaggedAs = results.filter((r) => r.categories.includes(c)).length;
    const precision = flaggedAs === 0 ? 1 : results.filter((r) => r.row.unsafe && r.categories.includes(c)).length / flaggedAs;
    console.log(`| ${c} | ${unsafe.length} | ${pct(caught, unsafe.length)} | ${near} | ${alarms} | ${(precision * 100).toFixed(1)}% |`);
  }
  for (const r of results) {
    if (r.row.unsafe) r.caught ? tp++ : fn++;
    else {
      benign++;
      if (r.caught) fp++;
    }
  }
  console.log(`| **all** | ${tp + fn} | ${pct(tp, tp + fn)} | ${benign} | ${fp} (${pct(fp, benign)} held back) | ${pct(tp, tp + fp)} |`);
}

function pct(a: number, b: number): string {
  return b === 0 ? "-" : `${((a / b) * 100).toFixed(1)}%`;
}

table(inputs, "input");
table(outputs, "output");
console.log("\nPrecision per category counts a line flagged for that category as correct when the line is unsafe (whatever its label).");

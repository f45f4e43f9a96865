/**
 * Child-safety checks: time per sentence and precision/recall per category. Run: `bun run bench:safety [rounds]`.
 *
 * Runs in the process it is started in (a fresh one with `bun run`), over the labelled sets in
 * test/fixtures/safety: the original sets (inputs*.jsonl, outputs*.jsonl), and the corpus split into dev
 * (corpus-*-dev.jsonl: the rules were written from it and the classifier trained on it) and test
 * (corpus-*-test.jsonl: never used to write a rule or train the model; the honest figure).
 *
 * Timing: every line is checked once to warm up, then each line `rounds` times; p50/p95/p99 are over single checks
 * (input: detection + redaction + decision; output: the same on a model sentence). On a loaded machine the tail
 * follows the load (the load average is printed).
 *
 * Per category, with the built-in default policy: recall = unsafe lines of the category intercepted (for any
 * category); false alarms = benign lines labelled with the category (near misses) that were intercepted; precision
 * = of the lines intercepted for the category, the share that were unsafe. The totals row also shows the rules
 * alone (without the learned classifier), so the classifier's share is visible.
 */
import { readFileSync, readdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { CATEGORIES, builtinPolicy, warmUpSafety } from "../src/engine/safety/checks.ts";
import { detectRulesOnly } from "../src/engine/safety/detect/detector.ts";
import { redactPii } from "../src/engine/safety/detect/pii.ts";

interface Row {
  text: string;
  unsafe: boolean;
  category: string;
}

const rounds = Number(process.argv[2] ?? 10);
const dir = join(import.meta.dir, "../test/fixtures/safety");
const load = (match: (file: string) => boolean): Row[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl") && match(f))
    .sort()
    .flatMap((f) => readFileSync(join(dir, f), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Row));

const SETS = [
  { name: "original sets (written with the first rules)", inputs: load((f) => f.startsWith("inputs")), outputs: load((f) => f.startsWith("outputs")) },
  { name: "corpus dev split (rules written from it, classifier trained on it)", inputs: load((f) => f === "corpus-inputs-dev.jsonl"), outputs: load((f) => f === "corpus-outputs-dev.jsonl") },
  { name: "corpus test split (held out: never tuned on)", inputs: load((f) => f === "corpus-inputs-test.jsonl"), outputs: load((f) => f === "corpus-outputs-test.jsonl") },
];

const coldStart = performance.now();
warmUpSafety();
const policy = builtinPolicy("default")!;
const coldMs = performance.now() - coldStart;

interface Timing {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Wall-clock and CPU time per check: on a loaded machine the wall-clock tail is preemption, the CPU time is the check. */
function time(rows: Row[], check: (t: string) => unknown): { wall: Timing; cpu: Timing } {
  for (const r of rows) check(r.text);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const r of rows) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      check(r.text);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
  }
  const stats = (samples: number[]): Timing => {
    samples.sort((a, b) => a - b);
    const at = (q: number): number => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
    return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: samples[samples.length - 1] as number };
  };
  return { wall: stats(wall), cpu: stats(cpu) };
}

const allInputs = SETS.flatMap((s) => s.inputs);
const allOutputs = SETS.flatMap((s) => s.outputs);
const inTime = time(allInputs, (t) => policy.checkInput(t));
const outTime = time(allOutputs, (t) => policy.checkOutput(t));

console.log(`\nChild-safety checks (${allInputs.length} input lines, ${allOutputs.length} output lines, ${rounds} rounds; first policy build ${coldMs.toFixed(1)} ms)\n`);
console.log("| check | clock | p50 ms | p95 ms | p99 ms | max ms | target p99 |");
console.log("|---|---|---|---|---|---|---|");
for (const [name, t] of [["input (child's message)", inTime], ["output (one model sentence)", outTime]] as const) {
  for (const clock of ["wall", "cpu"] as const) {
    const x = t[clock];
    console.log(`| ${name} | ${clock} | ${x.p50.toFixed(3)} | ${x.p95.toFixed(3)} | ${x.p99.toFixed(3)} | ${x.max.toFixed(2)} | < 1 ms |`);
  }
}
console.log(`\n(load average now ${loadavg().map((l) => l.toFixed(1)).join(" ")} on ${cpus().length} cores: spikes above p95 follow the machine's load)`);

function pct(a: number, b: number): string {
  return b === 0 ? "-" : `${((a / b) * 100).toFixed(1)}%`;
}

function table(title: string, rows: Row[], direction: "input" | "output"): void {
  const results = rows.map((r) => {
    const v = direction === "input" ? policy.checkInput(r.text) : policy.checkOutput(r.text);
    const rulesOnly = detectRulesOnly(r.text, direction).length > 0 || redactPii(r.text, direction === "output").kinds.length > 0;
    return { row: r, caught: v.intercepted.length > 0, rulesOnly, categories: v.intercepted as string[] };
  });
  console.log(`\n${title}: ${direction === "input" ? "child inputs" : "model sentences"} (default policy)\n`);
  console.log("| category | unsafe lines | recall | benign near misses | false alarms | precision |");
  console.log("|---|---|---|---|---|---|");
  for (const c of CATEGORIES) {
    const unsafe = results.filter((r) => r.row.unsafe && r.row.category === c);
    const near = results.filter((r) => !r.row.unsafe && r.row.category === c);
    if (unsafe.length === 0 && near.length === 0) continue;
    const flaggedAs = results.filter((r) => r.categories.includes(c));
    const precision = flaggedAs.length === 0 ? "-" : pct(flaggedAs.filter((r) => r.row.unsafe).length, flaggedAs.length);
    console.log(`| ${c} | ${unsafe.length} | ${pct(unsafe.filter((r) => r.caught).length, unsafe.length)} | ${near.length} | ${near.filter((r) => r.caught).length} | ${precision} |`);
  }
  const unsafe = results.filter((r) => r.row.unsafe);
  const benign = results.filter((r) => !r.row.unsafe);
  const tp = unsafe.filter((r) => r.caught).length;
  const fp = benign.filter((r) => r.caught).length;
  console.log(`| **all** | ${unsafe.length} | ${pct(tp, unsafe.length)} | ${benign.length} (all benign) | ${fp} (${pct(fp, benign.length)}) | ${pct(tp, tp + fp)} |`);
  console.log(`| rules alone | | ${pct(unsafe.filter((r) => r.rulesOnly).length, unsafe.length)} | | ${benign.filter((r) => r.rulesOnly).length} (${pct(benign.filter((r) => r.rulesOnly).length, benign.length)}) | |`);
}

for (const set of SETS) {
  table(set.name, set.inputs, "input");
  table(set.name, set.outputs, "output");
}
console.log("\nPrecision per category counts a line flagged for that category as correct when the line is unsafe (whatever its label).");

/**
 * Child-safety checks: the blind-set table per category and the time per check. Run: `bun run bench:safety [rounds]`.
 *
 * Runs in the process it is started in (a fresh one with `bun run`).
 *
 * Figures: the blind sets (test/fixtures/safety/blind/, written by people who saw only the category definitions,
 * never a rule, the corpus or a miss) scored as scripts/safety-data.ts counts: unsafe child inputs intercepted,
 * unsafe model sentences kept from the child, and everyday, near-miss and benign model lines held back, per
 * category, per writer, and for the rules alone.
 *
 * Timing: every labelled line (blind, training and the older corpus) is checked once to warm up, then each line
 * `rounds` times; p50/p95/p99 are over single checks (input: detection + redaction + decision; output: the same on
 * a model sentence), wall clock and CPU. On a loaded machine the wall-clock tail follows the load (printed).
 */
import { cpus, loadavg } from "node:os";
import { type Checker, formatScorecard, loadSet, policyChecker, score, share, trainingLines } from "../scripts/safety-data.ts";
import { builtinPolicy, warmUpSafety } from "../src/engine/safety/checks.ts";
import { detectRulesOnly } from "../src/engine/safety/detect/detector.ts";
import { redactPii } from "../src/engine/safety/detect/pii.ts";

interface Row {
  text: string;
  output: boolean;
}

const rounds = Number(process.argv[2] ?? 10);
const blind = loadSet("blind");
const timed: Row[] = [...trainingLines(), ...blind].map((l) => ({ text: l.text, output: l.direction === "output" }));

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

const allInputs = timed.filter((r) => !r.output);
const allOutputs = timed.filter((r) => r.output);
if (rounds > 0) {
  const inTime = time(allInputs, (t) => policy.checkInput(t));
  const outTime = time(allOutputs, (t) => policy.checkOutput(t));

  console.log(
    `\nChild-safety checks (${allInputs.length} input lines, ${allOutputs.length} output lines, ${rounds} rounds; first policy build ${coldMs.toFixed(1)} ms)\n`,
  );
  console.log("| check | clock | p50 ms | p95 ms | p99 ms | max ms | target p99 |");
  console.log("|---|---|---|---|---|---|---|");
  for (const [name, t] of [
    ["input (child's message)", inTime],
    ["output (one model sentence)", outTime],
  ] as const) {
    for (const clock of ["wall", "cpu"] as const) {
      const x = t[clock];
      console.log(`| ${name} | ${clock} | ${x.p50.toFixed(3)} | ${x.p95.toFixed(3)} | ${x.p99.toFixed(3)} | ${x.max.toFixed(2)} | < 1 ms |`);
    }
  }
  console.log(
    `\n(load average now ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${cpus().length} cores: spikes above p95 follow the machine's load)`,
  );
}

const checker = policyChecker(policy);
console.log(`\nBlind sets (test/fixtures/safety/blind/: ${blind.length} lines by writers who saw only the category definitions), default policy:\n`);
console.log(formatScorecard(score(blind, checker)));
for (const writer of [...new Set(blind.map((l) => l.writer))]) {
  const card = score(
    blind.filter((l) => l.writer === writer),
    checker,
  );
  console.log(
    `- ${writer}: inputs ${share(card.inputs.all)} intercepted, everyday ${share(card.everyday)} and near misses ${share(card.nearMiss)} held back; model sentences ${share(card.outputs.all)} kept from the child, ${share(card.benignOutputs)} of benign ones held back`,
  );
}
const rulesOnly: Checker = {
  input: (t) => ({ heldBack: detectRulesOnly(t, "input").length > 0, redacted: redactPii(t).kinds.length > 0, escalated: false, categories: [] }),
  output: (t) => ({
    heldBack: detectRulesOnly(t, "output").length > 0 || redactPii(t, true).kinds.length > 0,
    redacted: false,
    escalated: false,
    categories: [],
  }),
};
const r = score(blind, rulesOnly);
console.log(
  `\nEvery rule deciding alone, without the classifier: inputs ${share(r.inputs.all)} intercepted, everyday ${share(r.everyday)}, near misses ${share(r.nearMiss)} held back; model sentences ${share(r.outputs.all)} kept, ${share(r.benignOutputs)} of benign held back.`,
);

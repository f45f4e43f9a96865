/**
 * bun run bench — every benchmark in sequence, each printing its own table: http, interact, startup, engine,
 * speech, speech-engine, then safety and voice when package.json has those scripts (a missing one is named and
 * skipped), then any other `bench:*` script in package.json. Settings of each benchmark pass through (BENCH_SECONDS, BENCH_ROUNDS…). A failing benchmark does not
 * stop the others; the exit code is non-zero if any failed.
 */
import { join } from "node:path";
import { machineLine } from "./machine.ts";

const ORDER = ["http", "interact", "startup", "engine", "speech", "speech-engine", "safety", "voice"];
const root = join(import.meta.dir, "..");
const scripts = ((await Bun.file(join(root, "package.json")).json()) as { scripts?: Record<string, string> }).scripts ?? {};

console.log(machineLine());
console.log("(engine, speech and speech-engine run in one process each, unpinned; http, interact and startup pin the server and the load apart)");

// Any other bench:* script runs after these, in package.json's order.
const others = Object.keys(scripts)
  .filter((s) => s.startsWith("bench:") && !ORDER.includes(s.slice(6)))
  .map((s) => s.slice(6));

const outcomes: { name: string; result: string }[] = [];
for (const name of [...ORDER, ...others]) {
  const script = `bench:${name}`;
  if (!scripts[script]) {
    console.log(`\n=== ${script}: no such script in package.json, skipped`);
    outcomes.push({ name: script, result: "skipped (no script)" });
    continue;
  }
  console.log(`\n=== ${script} (${scripts[script]})`);
  if (!["http", "interact", "startup"].includes(name)) console.log(machineLine());
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, "run", script], { cwd: root, stdin: "ignore", stdout: "inherit", stderr: "inherit" });
  const code = await proc.exited;
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  outcomes.push({ name: script, result: code === 0 ? `ok (${seconds} s)` : `FAILED with exit code ${code} (${seconds} s)` });
}

console.log("\n=== summary");
for (const o of outcomes) console.log(`${o.name.padEnd(22)} ${o.result}`);
process.exit(outcomes.some((o) => o.result.startsWith("FAILED")) ? 1 : 0);

/**
 * bun bench/turn-cpu.ts — the server's CPU per text turn: a fresh `hoot serve` (local model at full speed,
 * text only, log level warn) pinned to the server core, BENCH_SESSIONS (20) sessions each running BENCH_TURNS
 * (25) turns one after another, all at once, from the load generator (bench/interact-load.ts) on the load
 * core. The server's own CPU time (from /proc) over the measured turns, divided by their number, is the cost of
 * a turn on the socket thread plus whatever the turn hands to other threads. BENCH_ROUNDS (3) rounds, each after
 * one warm-up round; the median is reported beside the min and max.
 * BENCH_CPU_PROF_DIR=dir: the server writes a CPU profile there (summarise with bench/cpu-profile.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN, spawnServer } from "../test/helpers/process.ts";
import { playerTokens } from "./api-targets.ts";
import { cpuPlan, machineLines, pinned, pinSelf } from "./machine.ts";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 20);
const TURNS = Number(process.env.BENCH_TURNS ?? 25);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const LOAD_SCRIPT = join(import.meta.dir, "interact-load.ts");
const plan = cpuPlan();
pinSelf(plan.load);
const dir = mkdtempSync(join(tmpdir(), "hoot-bench-turn-cpu-"));
const PROFILE = process.env.BENCH_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`, "--cpu-prof-interval=250"] : [];
const env = {
  HOOT_LOG_LEVEL: "warn",
  HOOT_LOCAL_TOKENS_PER_SECOND: "0",
  HOOT_WS_MAX_SOCKETS_PER_PLAYER: "10000",
  HOOT_LOGIN_FAILURES_PER_MINUTE: "100000",
};
const config = { prompt: "You are Ollie the owl, a kind friend." };
const prompts = ["Hello!", "Tell me a story about a dragon", "What is 3 plus 4?", "I feel sad today", "Can we play a game about animals?"];

const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const server = await spawnServer(dir, env, pinned(plan.server, [process.execPath, ...PROFILE, MAIN]));
try {
  const tokens = await playerTokens(server.url, join(dir, "data/dev-credentials.json"), SESSIONS, "cpu");
  // Let the deferred start-up work (safety warm-up, workers) finish before measuring.
  await Bun.sleep(3000);
  const url = `${server.url.replace(/^http/, "ws")}/interact`;
  const round = async () => {
    const file = join(dir, `load-${crypto.randomUUID()}.json`);
    writeFileSync(file, JSON.stringify({ mode: "turns", url, tokens, turns: TURNS, config, prompts }));
    const before = cpuMs(server.proc.pid);
    const proc = Bun.spawn(pinned(plan.load, [process.execPath, LOAD_SCRIPT, file]), { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const done = out.split("\n").find((l) => l.startsWith('{"event":"done"'));
    if (code !== 0 || !done) throw new Error(`load generator failed (${code}): ${err.slice(-2000)}`);
    const { firstText } = JSON.parse(done) as { firstText: number[] };
    // Each session also authenticates, configures and runs one warm-up turn: counted as turns too.
    const turns = firstText.length + SESSIONS;
    return { perTurn: (cpuMs(server.proc.pid) - before) / turns, failed: firstText.filter((t) => t < 0).length };
  };
  await round();
  const results = [];
  for (let i = 0; i < ROUNDS; i++) results.push(await round());
  const sorted = results.map((r) => r.perTurn).sort((a, b) => a - b);
  console.log(`\nserver CPU per text turn (${SESSIONS} sessions x ${TURNS} turns + 1 warm-up each, ${ROUNDS} rounds after one warm-up round)`);
  for (const line of machineLines(plan, { server: "hoot", load: "the load generator (bench/interact-load.ts)" })) console.log(line);
  console.log(
    `CPU ms per turn: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)}, min ${sorted[0]!.toFixed(3)}, max ${sorted.at(-1)!.toFixed(3)}; failed turns ${results.reduce((n, r) => n + r.failed, 0)}`,
  );
} finally {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  rmSync(dir, { recursive: true, force: true });
}

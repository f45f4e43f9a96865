/**
 * bun run bench:realtime — what the /v1/realtime adapter costs over /interact, in one run on one server: the
 * local language model at full speed (HOOT_LOCAL_TOKENS_PER_SECOND=0), text only, BENCH_PLAYERS (100) sessions
 * each doing BENCH_TURNS (5) turns one after another, all at once, on each door in turn for BENCH_ROUNDS (3)
 * rounds (samples pooled; the ratio of the p50s is taken within each round, then the median, so load from
 * elsewhere on a shared machine moves both alike):
 *   /interact      interact -> first `text` event (bench/interact-load.ts, turns mode)
 *   /v1/realtime   response.create -> first response.output_text.delta (bench/realtime-load.ts)
 * and the same for one session alone (50 turns on each door), the adapter's own cost without queueing.
 * Goal (issue 28): the adapter's first-delta p50 is at most 10% over /interact's first-text p50.
 * The server runs pinned to one core, each load generator in its own process on another (bench/machine.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN, spawnServer } from "../test/helpers/process.ts";
import { playerTokens } from "./api-targets.ts";
import { type Latencies, summarize } from "./interact-load.ts";
import { printTable } from "./load.ts";
import { cpuPlan, machineLines, ms, pinned, pinSelf } from "./machine.ts";
import { median } from "./wrk.ts";

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100);
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const prompt = "You are Ollie the owl, a kind friend.";
const prompts = ["Hello!", "Tell me a story about a dragon", "What is 3 plus 4?", "I feel sad today", "."];

const plan = cpuPlan();
pinSelf(plan.load);
const dir = mkdtempSync(join(tmpdir(), "hoot-bench-realtime-"));
const env = {
  HOOT_LOG_LEVEL: "warn",
  HOOT_LOCAL_TOKENS_PER_SECOND: "0",
  HOOT_WS_MAX_SOCKETS_PER_PLAYER: "10000",
  HOOT_WS_MAX_SOCKETS: "1000000",
  HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS: "1000000",
  HOOT_WS_MESSAGES_PER_MINUTE: "100000",
  HOOT_LOGIN_FAILURES_PER_MINUTE: "100000",
};
// BENCH_CPU_PROF_DIR: the hoot process writes a CPU profile there (summarise with bench/cpu-profile.ts).
const PROFILE = process.env.BENCH_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`, "--cpu-prof-interval=250"] : [];
const server = await spawnServer(dir, env, pinned(plan.server, [process.execPath, ...PROFILE, MAIN]));
try {
  const tokens = await playerTokens(server.url, join(dir, "data/dev-credentials.json"), PLAYERS);
  const ws = server.url.replace(/^http/, "ws");
  const pooled = {
    interact: [] as number[],
    realtime: [] as number[],
    interactClose: [] as number[],
    realtimeClose: [] as number[],
    interactSolo: [] as number[],
    realtimeSolo: [] as number[],
  };
  const soloRatios: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const runInteract = (some = tokens, turns = TURNS) =>
      generate("interact-load.ts", { mode: "turns", url: `${ws}/interact`, tokens: some, turns, config: { prompt }, prompts });
    const runRealtime = (some = tokens, turns = TURNS) =>
      generate("realtime-load.ts", { url: `${ws}/v1/realtime`, tokens: some, turns, instructions: prompt, prompts });
    // The doors take turns going first, so neither always meets a colder (or warmer) server.
    let interact: Awaited<ReturnType<typeof runInteract>>;
    let realtime: Awaited<ReturnType<typeof runRealtime>>;
    if (round % 2 === 0) {
      interact = await runInteract();
      realtime = await runRealtime();
    } else {
      realtime = await runRealtime();
      interact = await runInteract();
    }
    // One session alone, 50 turns on each door: the adapter's own cost per turn, without queueing behind others.
    const interactSolo = await runInteract(tokens.slice(0, 1), 50);
    const realtimeSolo = await runRealtime(tokens.slice(0, 1), 50);
    pooled.interactSolo.push(...interactSolo.firstText);
    pooled.realtimeSolo.push(...realtimeSolo.firstText);
    soloRatios.push(summarize(realtimeSolo.firstText).p50 / summarize(interactSolo.firstText).p50);
    pooled.interact.push(...interact.firstText);
    pooled.interactClose.push(...interact.close);
    pooled.realtime.push(...realtime.firstText);
    pooled.realtimeClose.push(...realtime.close);
    const ratio = summarize(realtime.firstText).p50 / summarize(interact.firstText).p50;
    ratios.push(ratio);
    process.stderr.write(
      `  round ${round + 1}/${ROUNDS}: /interact first text p50 ${ms(summarize(interact.firstText).p50)} ms, ` +
        `/v1/realtime first delta p50 ${ms(summarize(realtime.firstText).p50)} ms (${ratio.toFixed(2)}x)\n`,
    );
  }
  const ratio = median(ratios);
  const row = (measure: string, l: Latencies, goal = "", verdict = "") => ({
    measure,
    samples: l.count,
    failed: l.failed,
    "p50 ms": ms(l.p50),
    "p99 ms": ms(l.p99),
    "max ms": ms(l.max),
    "goal (issue 28)": goal,
    verdict,
  });
  console.log(`\nhoot realtime benchmark: local model at full speed, text only, ${PLAYERS} sessions x ${TURNS} turns on each door, ${ROUNDS} rounds`);
  for (const line of machineLines(plan, { server: "the hoot server", load: "the load generators (one door at a time)" })) console.log(line);
  console.log("");
  const soloRatio = median(soloRatios);
  printTable([
    row("/interact: interact -> first text, 1 session", summarize(pooled.interactSolo), "(the baseline)"),
    row(
      "/v1/realtime: response.create -> first delta, 1 session",
      summarize(pooled.realtimeSolo),
      "p50 <= 1.10x /interact's",
      `${soloRatio <= 1.1 ? "met" : "NOT met"} (${soloRatio.toFixed(2)}x, median of the rounds)`,
    ),
    row(`/interact: interact -> first text, ${PLAYERS} sessions`, summarize(pooled.interact), "(the baseline)"),
    row(
      `/v1/realtime: response.create -> first delta, ${PLAYERS} sessions`,
      summarize(pooled.realtime),
      "p50 <= 1.10x /interact's",
      `${ratio <= 1.1 ? "met" : "NOT met"} (${ratio.toFixed(2)}x, median of the rounds)`,
    ),
    row(`/interact: interact -> close, ${PLAYERS} sessions`, summarize(pooled.interactClose)),
    row(`/v1/realtime: response.create -> response.done, ${PLAYERS} sessions`, summarize(pooled.realtimeClose)),
  ]);
} finally {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  rmSync(dir, { recursive: true, force: true });
}

/** Runs one load generator in its own pinned process; its result line. */
async function generate(script: string, load: unknown): Promise<{ firstText: number[]; close: number[] }> {
  const file = join(dir, `load-${crypto.randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(load));
  const proc = Bun.spawn(pinned(plan.load, [process.execPath, join(import.meta.dir, script), file]), { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const done = out.split("\n").find((l) => l.startsWith('{"event":"done"'));
  if (code !== 0 || !done) throw new Error(`load generator ${script} failed (${code}): ${err.slice(-2000)}`);
  return JSON.parse(done);
}

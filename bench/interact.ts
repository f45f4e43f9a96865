/**
 * bun run bench:interact — the interact socket with the local language model at full speed
 * (HOOT_LOCAL_TOKENS_PER_SECOND=0), text only. Every server runs pinned to one core; the load runs in its own
 * process (bench/interact-load.ts) pinned to another (bench/machine.ts). In one run:
 *   1. BENCH_PLAYERS (100) sessions, each doing BENCH_TURNS (5) turns one after another, all at once:
 *      interact -> first `text` and -> `close`; and one session alone (50 turns).
 *   2. A bare Bun websocket echo server on the same core, same number of sockets and round trips: its p50 is
 *      the floor. Goal (issue 18): hoot's first-text p50 <= 2x the echo's p50, and p99 <= 2.5 ms.
 *      1 and 2 alternate for BENCH_ROUNDS (3) rounds. BENCH_THINK_MS=1000-3000 puts a pause drawn from that range
 *      before every turn and every echo round trip (issue 26's load: each child types every 1-3 s); without it
 *      every session sends its next turn as soon as the last one closed (a saturation test).
 *   3. Memory: a fresh hoot process; RSS after a full GC once it has settled, then with 1,000 and BENCH_IDLE
 *      (10,000) sessions open, authenticated and configured, after a full GC. Goal (issue 26): <= 3 KB RSS per
 *      session at 10,000, about twice the bare socket. The same for a fresh bare Bun websocket server holding as
 *      many sockets (the floor). The GC is triggered by a signal handler preloaded into each server
 *      (bench/gc-hook.ts); hoot's code is unchanged.
 *    BENCH_MEMORY_ONLY=1 runs this phase alone (no latency rounds). BENCH_COMPARE_MAIN=<another checkout's
 *    src/main.ts> measures that hoot too, from its own fresh process in the same run and the same data folder
 *    (before/after a change: `git archive <commit> | tar -x -C /tmp/base`, then link node_modules into it).
 * The pipeline's own overhead over a provider's first token is measured by `bun run bench:engine`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN, spawnServer } from "../test/helpers/process.ts";
import { playerTokens } from "./api-targets.ts";
import { type Latencies, type LoadConfig, summarize } from "./interact-load.ts";
import { printTable } from "./load.ts";
import { cpuPlan, machineLines, ms, pinned, pinSelf } from "./machine.ts";
import { median } from "./wrk.ts";

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100);
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const IDLE = Number(process.env.BENCH_IDLE ?? 10_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const MEMORY_ONLY = process.env.BENCH_MEMORY_ONLY === "1";
const COMPARE_MAIN = process.env.BENCH_COMPARE_MAIN ?? "";
const THINK = /^(\d+)-(\d+)$/.exec(process.env.BENCH_THINK_MS ?? "");
const thinkMs: [number, number] | undefined = THINK ? [Number(THINK[1]), Number(THINK[2])] : undefined;
const LOAD_SCRIPT = join(import.meta.dir, "interact-load.ts");
const GC_HOOK = join(import.meta.dir, "gc-hook.ts");

const plan = cpuPlan();
pinSelf(plan.load);
const dir = mkdtempSync(join(tmpdir(), "hoot-bench-interact-"));
const hootEnv = {
  HOOT_LOG_LEVEL: "warn",
  HOOT_LOCAL_TOKENS_PER_SECOND: "0",
  HOOT_WS_MAX_SOCKETS_PER_PLAYER: "10000",
  HOOT_WS_MAX_SOCKETS: "1000000",
  HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS: "1000000",
  HOOT_LOGIN_FAILURES_PER_MINUTE: "100000",
  BENCH_GC_ACK: join(dir, "gc-ack.json"),
};
const config = { prompt: "You are Ollie the owl, a kind friend." };
const prompts = ["Hello!", "Tell me a story about a dragon", "What is 3 plus 4?", "I feel sad today", "."];
type Server = Awaited<ReturnType<typeof spawnServer>>;
const running = new Set<Server>();
// BENCH_CPU_PROF_DIR: every hoot process of the run writes a CPU profile there (summarise with bench/cpu-profile.ts).
const PROFILE = process.env.BENCH_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`, "--cpu-prof-interval=250"] : [];
const hootCommand = pinned(plan.server, [process.execPath, ...PROFILE, "--preload", GC_HOOK, MAIN]);

try {
  // ---- 1 and 2. first text at PLAYERS sessions and alone, next to a bare Bun websocket echo on the same core --
  // Both servers stay up (the idle one costs nothing) and take turns for BENCH_ROUNDS rounds; samples are pooled,
  // and the p50 ratio is taken within each round (then the median), so load from elsewhere moves both alike.
  const echoFile = join(dir, "echo.ts");
  writeFileSync(
    echoFile,
    `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch(req, server) { return server.upgrade(req) ? undefined : new Response("upgrade", { status: 400 }); },\n` +
      `  websocket: { message(ws, m) { ws.send(m); } } });\nconsole.error("listening on " + s.url.href.replace(/\\/$/, ""));\n`,
  );
  const echoCommand = pinned(plan.server, [process.execPath, "--preload", GC_HOOK, echoFile]);
  const echoEnv = { BENCH_GC_ACK: hootEnv.BENCH_GC_ACK };
  let server = await start(hootCommand, hootEnv);
  const tokens = await playerTokens(server.url, join(dir, "data/dev-credentials.json"), PLAYERS);
  const wsUrl = (s: Server) => `${s.url.replace(/^http/, "ws")}/interact`;
  const echoServer = await start(echoCommand, echoEnv);
  const echoUrl = echoServer.url.replace(/^http/, "ws");
  const pooled = { firstText: [] as number[], close: [] as number[], solo: [] as number[], echo: [] as number[], echoSolo: [] as number[] };
  const ratios: number[] = [];
  for (let round = 0; round < (MEMORY_ONLY ? 0 : ROUNDS); round++) {
    const many = await generate({ mode: "turns", url: wsUrl(server), tokens, turns: TURNS, config, prompts, thinkMs });
    const echo = await generate({ mode: "echo", url: echoUrl, sessions: PLAYERS, turns: TURNS, thinkMs });
    const solo = await generate({ mode: "turns", url: wsUrl(server), tokens: tokens.slice(0, 1), turns: 50, config, prompts });
    const echoSolo = await generate({ mode: "echo", url: echoUrl, sessions: 1, turns: 50 });
    pooled.firstText.push(...many.firstText);
    pooled.close.push(...many.close);
    pooled.solo.push(...solo.firstText);
    pooled.echo.push(...echo.roundTrip);
    pooled.echoSolo.push(...echoSolo.roundTrip);
    ratios.push(summarize(many.firstText).p50 / summarize(echo.roundTrip).p50);
    process.stderr.write(
      `  round ${round + 1}/${ROUNDS}: first text p50 ${ms(summarize(many.firstText).p50)} ms, echo p50 ${ms(summarize(echo.roundTrip).p50)} ms\n`,
    );
  }
  await stop(server);
  await stop(echoServer);

  // ---- 3. memory per idle session, from a fresh process ------------------------------------------------------
  server = await start(hootCommand, hootEnv);
  const fresh = await settled(server);
  const steps = [...new Set([Math.min(1000, IDLE), IDLE])];
  const idle = await idleSessions(server, wsUrl(server), tokens, steps, true);
  await stop(server);
  // Another hoot (BENCH_COMPARE_MAIN), measured the same way from its own fresh process.
  let compared: { fresh: Measured & { stable: boolean }; idle: IdleStep[] } | null = null;
  if (COMPARE_MAIN) {
    const other = await start(pinned(plan.server, [process.execPath, "--preload", GC_HOOK, COMPARE_MAIN]), hootEnv, true);
    const otherFresh = await settled(other);
    compared = { fresh: otherFresh, idle: await idleSessions(other, wsUrl(other), tokens, steps, true) };
    await stop(other);
  }
  // The floor: the same sockets held by a fresh bare Bun websocket server (it echoes the two requests back).
  const echoIdleServer = await start(echoCommand, echoEnv);
  const echoFresh = await settled(echoIdleServer);
  const echoIdle = await idleSessions(echoIdleServer, echoIdleServer.url.replace(/^http/, "ws"), tokens, steps, false);
  await stop(echoIdleServer);

  // ---- report ------------------------------------------------------------------------------------------------
  const firstText = summarize(pooled.firstText);
  const ratio = median(ratios);
  const latencyRow = (measure: string, l: Latencies, goal = "", verdict = "") => ({
    measure,
    samples: l.count,
    failed: l.failed,
    "p50 ms": ms(l.p50),
    "p99 ms": ms(l.p99),
    "max ms": ms(l.max),
    goal,
    verdict,
  });
  console.log(
    `\nhoot interact benchmark: local model at full speed, text only, ${PLAYERS} sessions x ${TURNS} turns, ${ROUNDS} rounds${thinkMs ? `, a pause of ${thinkMs[0]}-${thinkMs[1]} ms before each turn` : ", no pause between turns"} (samples pooled; the echo ratio is the median of the rounds')`,
  );
  for (const line of machineLines(plan, {
    server: "each server (hoot and the echo, taking turns under load)",
    load: "the load generator (bench/interact-load.ts)",
  }))
    console.log(line);
  console.log("");
  if (!MEMORY_ONLY)
    printTable([
      latencyRow("interact -> first text, 1 session", summarize(pooled.solo)),
      latencyRow(
        `interact -> first text, ${PLAYERS} sessions`,
        firstText,
        "p50 <= 2x echo p50; p99 <= 2.5 ms (issue 18)",
        `${ratio <= 2 ? "met" : "NOT met"} (${ratio.toFixed(2)}x echo); ${firstText.p99 <= 2.5 ? "met" : "NOT met"}`,
      ),
      latencyRow(`interact -> close, ${PLAYERS} sessions`, summarize(pooled.close)),
      latencyRow("bare Bun websocket echo, round trip, 1 session", summarize(pooled.echoSolo)),
      latencyRow(`bare Bun websocket echo, round trip, ${PLAYERS} sessions`, summarize(pooled.echo), "(the floor)"),
    ]);
  console.log("");
  const rows: Record<string, string | number>[] = [];
  // Judged once the bare socket's cost is known: issue 26's goal is <= 3 KB, about twice the bare socket.
  const judgedRows: { row: Record<string, string | number>; judged: number; live: number }[] = [];
  const memoryRows = (who: string, start: Measured & { stable: boolean }, steps: IdleStep[], goal: boolean): number => {
    const moving = (m: { stable: boolean }) => (m.stable ? "" : " (RSS still moving)");
    const row = (measure: string, sessions: number, rss: number, heap: number, kb: number | "") =>
      ({
        measure,
        sessions,
        "RSS MB": ms(rss / 2 ** 20),
        "JS heap MB": ms(heap / 2 ** 20),
        "KB per session": kb === "" ? "" : ms(kb),
        goal: "",
        verdict: "",
      }) as Record<string, string | number>;
    rows.push(row(`${who}: fresh process, after a full GC${moving(start)}`, 0, start.rss, start.heapUsed, ""));
    const last = steps.at(-1)!;
    const total = (last.rss - start.rss) / 1024 / Math.max(1, last.live);
    for (const step of steps) {
      rows.push(
        row(
          `${who}: idle sessions, after a full GC${step.failed ? ` (${step.failed} failed to open)` : ""}${moving(step)}`,
          step.live,
          step.rss,
          step.heapUsed,
          (step.rss - start.rss) / 1024 / Math.max(1, step.live),
        ),
      );
    }
    let judged = total;
    if (steps.length === 2) {
      const [a, b] = steps as [IdleStep, IdleStep];
      const marginal = (b.rss - a.rss) / 1024 / Math.max(1, b.live - a.live);
      judged = Math.max(total, marginal);
      rows.push(row(`${who}: marginal, ${a.live} -> ${b.live} sessions`, b.live - a.live, b.rss - a.rss, b.heapUsed - a.heapUsed, marginal));
    }
    if (goal) judgedRows.push({ row: rows.at(-1)!, judged, live: last.live });
    return judged;
  };
  memoryRows("hoot (authenticated + configured)", fresh, idle, true);
  if (compared) memoryRows(`hoot at ${COMPARE_MAIN}`, compared.fresh, compared.idle, true);
  const bare = memoryRows("bare Bun websocket (open sockets)", echoFresh, echoIdle, false);
  for (const { row, judged, live } of judgedRows) {
    row.goal = "<= 3 KB each at 10,000 (issue 26)";
    row.verdict =
      live < 10_000
        ? `n/a (${live} sessions)`
        : `${judged <= 3 ? "met" : "NOT met"} (${ms(judged)} KB, the larger; ${(judged / bare).toFixed(2)}x the bare socket)`;
  }
  printTable(rows);
  console.log(`(KB per session = RSS growth over the fresh process / open sessions (hoot: its hoot_ws_sessions gauge); marginal = growth between the`);
  console.log(
    ` two steps / sessions added. The verdict takes the larger of the two. hoot's last ${idle.at(-1)?.live} sessions opened in ${idle.at(-1)?.openSeconds.toFixed(1)} s)`,
  );
} finally {
  for (const s of running) await stop(s);
  rmSync(dir, { recursive: true, force: true });
}

async function start(command: string[], env: Record<string, string>, hoot = command.includes(MAIN)): Promise<Server> {
  const sub = join(dir, `server-${running.size}-${Date.now()}`);
  mkdirSync(sub);
  // Every hoot start uses the same data folder (the players and their tokens outlive a restart); a new process each time.
  const cwd = hoot ? dir : sub;
  const s = await spawnServer(cwd, env, command);
  running.add(s);
  return s;
}

async function stop(s: Server): Promise<void> {
  if (!running.delete(s)) return;
  s.proc.kill("SIGTERM");
  await s.proc.exited;
}

/** Runs the load generator once in its own pinned process and returns its result line. */
async function generate<T extends LoadConfig>(
  load: T,
): Promise<T extends { mode: "echo" } ? { roundTrip: number[] } : { firstText: number[]; close: number[] }> {
  const file = join(dir, `load-${crypto.randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(load));
  const proc = Bun.spawn(pinned(plan.load, [process.execPath, LOAD_SCRIPT, file]), { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const done = out.split("\n").find((l) => l.startsWith('{"event":"done"'));
  if (code !== 0 || !done) throw new Error(`load generator failed (${code}): ${err.slice(-2000)}`);
  return JSON.parse(done);
}

interface Measured {
  rss: number;
  heapUsed: number;
}

/** Asks the server (through bench/gc-hook.ts) for a full GC and its memory right after. */
async function gcAndMeasure(s: Server): Promise<Measured> {
  const ack = hootEnv.BENCH_GC_ACK;
  if (existsSync(ack)) unlinkSync(ack);
  s.proc.kill("SIGUSR2");
  const deadline = Date.now() + 30_000;
  while (!existsSync(ack)) {
    if (Date.now() > deadline) throw new Error("the server did not answer the GC signal (is bench/gc-hook.ts preloaded?)");
    await Bun.sleep(20);
  }
  return JSON.parse(readFileSync(ack, "utf8")) as Measured;
}

/**
 * Memory once the server is idle and its memory has stopped moving: a GC every 500 ms until, over the last 6 s,
 * RSS stayed within 1 MB and the process used under 25% of a core (its own CPU time from /proc, the GCs
 * included), or BENCH_SETTLE_SECONDS (60) pass. A fresh server warms its speech workers up in the background and
 * then gives ~50 MB back to the system in steps, seconds later (later still on a busy machine); a "before" reading
 * taken earlier makes sessions look cheaper than they are, since they reuse pages it already counted. That is
 * why the verdict also uses the marginal cost between 1,000 and 10,000 sessions, whichever is larger.
 */
async function settled(s: Server): Promise<Measured & { settleSeconds: number; stable: boolean }> {
  const started = Date.now();
  const limit = Number(process.env.BENCH_SETTLE_SECONDS ?? 60) * 1000;
  const window = 13;
  const readings: (Measured & { cpuMs: number; at: number })[] = [];
  for (;;) {
    const cpuMs = cpuTimeMs(s.proc.pid);
    readings.push({ ...(await gcAndMeasure(s)), cpuMs, at: Date.now() });
    const last = readings.slice(-window);
    const first = last[0]!;
    const end = last.at(-1)!;
    const flat = Math.max(...last.map((r) => r.rss)) - Math.min(...last.map((r) => r.rss)) <= 2 ** 20;
    const idle = end.at > first.at && (end.cpuMs - first.cpuMs) / (end.at - first.at) < 0.25;
    const stable = last.length === window && flat && idle;
    if (stable || Date.now() - started > limit) return { rss: end.rss, heapUsed: end.heapUsed, settleSeconds: (Date.now() - started) / 1000, stable };
    await Bun.sleep(500);
  }
}

/** User + system CPU time of a process so far (ms), from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface IdleStep extends Measured {
  stable: boolean;
  live: number;
  failed: number;
  openSeconds: number;
}

/** Opens idle sessions up to each step with the generator, measuring the server after a GC at each. */
async function idleSessions(s: Server, url: string, tokens: string[], steps: number[], hoot: boolean): Promise<IdleStep[]> {
  const file = join(dir, "load-idle.json");
  writeFileSync(file, JSON.stringify({ mode: "idle", url, tokens, steps, config, batch: 250 } satisfies LoadConfig));
  const proc = Bun.spawn(pinned(plan.load, [process.execPath, LOAD_SCRIPT, file]), { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const stderr = new Response(proc.stderr).text();
  const out: IdleStep[] = [];
  const reader = proc.stdout.getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += new TextDecoder().decode(value);
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = JSON.parse(buffer.slice(0, nl)) as { event: string; count: number; failed: number; firstError: string; seconds: number };
      buffer = buffer.slice(nl + 1);
      if (line.event !== "opened") continue;
      if (line.failed > 0) process.stderr.write(`bench:interact: ${line.failed} sessions failed to open: ${line.firstError}\n`);
      const measured = await settled(s);
      const metrics = hoot ? await (await fetch(`${s.url}/metrics`)).text() : "";
      const live = Number(/^hoot_ws_sessions (\d+)/m.exec(metrics)?.[1] ?? line.count);
      out.push({ ...measured, live, failed: line.failed, openSeconds: line.seconds });
      proc.stdin.write("next\n");
      proc.stdin.flush();
    }
  }
  proc.stdin.end();
  if ((await proc.exited) !== 0) throw new Error(`idle load generator failed: ${(await stderr).slice(-2000)}`);
  return out;
}

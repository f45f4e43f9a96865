/**
 * bun run bench:http — hoot's hot HTTP paths next to a bare `Bun.serve` hello and a Node peer (Fastify +
 * better-sqlite3 + jsonwebtoken, bench/peers/fastify/, doing the same duties), in one run, with the same load
 * generator: `wrk` on its own core, every server on one other core (see bench/machine.ts). Targets (issue 18):
 *   authenticated GET /api/players/{pk}  >= 0.50 of bare and >= 3x the peer
 *   POST /api/auth/login (developer form; player form) >= 0.30 of bare and >= 3x the peer
 *   POST /api/players                    >= 0.20 of bare
 * plus GET /api/players?limit=1 with the same token, a read that writes no audit row, beside the audited GET.
 * BENCH_COMPARE="label=/other/checkout/src/main.ts,…" runs other builds of hoot (another commit, exported with
 * `git archive`) in the same run, each with the same four paths interleaved with this one's: a before/after
 * against the same bare baseline, round by round.
 * Settings: BENCH_ROUNDS (3), BENCH_SECONDS (2 per target per round), BENCH_WARMUP_SECONDS (1),
 * BENCH_CONNECTIONS (64), BENCH_WRK_THREADS (one per load core), BENCH_SERVER_CPUS / BENCH_LOAD_CPUS
 * (machine.ts), BENCH_NO_PEER=1 (skip the peer). hoot runs with HOOT_LOG_LEVEL=warn (no per-request log line).
 * Needs wrk (Debian: `apt-get update && apt-get install -y wrk`); installs the peer's packages with `npm ci`
 * in its folder when they are missing. Nothing is downloaded from anywhere else.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN, spawnServer } from "../test/helpers/process.ts";
import { type ApiTargets, apiTargets, peerCommand, preparePeer } from "./api-targets.ts";
import { printTable } from "./load.ts";
import { cpuPlan, machineLines, ms, pinned, pinSelf } from "./machine.ts";
import { median, requireWrk, runRounds, type WrkTarget } from "./wrk.ts";

const SECONDS = Math.max(1, Math.round(Number(process.env.BENCH_SECONDS ?? 2))); // wrk takes whole seconds
const ROUNDS = Math.max(1, Math.round(Number(process.env.BENCH_ROUNDS ?? 3)));
const WARMUP = Math.max(0, Math.round(Number(process.env.BENCH_WARMUP_SECONDS ?? 1)));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const LIST = "GET /api/players?limit=1 (no audit row)";
const COMPARE = (process.env.BENCH_COMPARE ?? "")
  .split(",")
  .filter((part) => part.includes("="))
  .map((part) => ({ label: part.slice(0, part.indexOf("=")).trim(), main: part.slice(part.indexOf("=") + 1).trim() }));

requireWrk("bench:http");
const plan = cpuPlan();
pinSelf(plan.load);
const threads = Number(process.env.BENCH_WRK_THREADS ?? Math.max(1, plan.load?.split(/[,-]/).length ?? 1));
const peerNote = process.env.BENCH_NO_PEER === "1" ? "skipped (BENCH_NO_PEER=1)" : await preparePeer();

const dir = mkdtempSync(join(tmpdir(), "hoot-bench-http-"));
const helloFile = join(dir, "hello.ts");
writeFileSync(
  helloFile,
  `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ hello: "world" }) });\nconsole.error("listening on " + s.url.href.replace(/\\/$/, ""));\n`,
);
const sub = (name: string) => {
  const path = join(dir, name);
  mkdirSync(path);
  return path;
};

type Server = Awaited<ReturnType<typeof spawnServer>>;
const servers: Server[] = [];
try {
  const hello = await spawnServer(sub("bare"), {}, pinned(plan.server, [process.execPath, helloFile]));
  servers.push(hello);
  const hootDir = sub("hoot");
  const hoot = await spawnServer(hootDir, { HOOT_LOG_LEVEL: "warn", HOOT_LOGIN_FAILURES_PER_MINUTE: "100000" }, pinned(plan.server, [process.execPath, MAIN]));
  servers.push(hoot);
  let peerTargets: ApiTargets | null = null;
  let peerPid: number | null = null;
  if (peerNote === "ok") {
    const peerDir = sub("peer");
    const peer = await spawnServer(peerDir, { PEER_DATA_DIR: peerDir }, pinned(plan.server, peerCommand()));
    servers.push(peer);
    peerPid = peer.proc.pid;
    peerTargets = await apiTargets("peer", peer.url, join(peerDir, "dev-credentials.json"));
  }
  const hootTargets = await apiTargets("hoot", hoot.url, join(hootDir, "data/dev-credentials.json"));
  const others: { targets: ApiTargets; pid: number }[] = [];
  for (const other of COMPARE) {
    const otherDir = sub(`hoot-${others.length}`);
    const server = await spawnServer(
      otherDir,
      { HOOT_LOG_LEVEL: "warn", HOOT_LOGIN_FAILURES_PER_MINUTE: "100000" },
      pinned(plan.server, [process.execPath, other.main]),
    );
    servers.push(server);
    others.push({ targets: await apiTargets(`hoot ${other.label}`, server.url, join(otherDir, "data/dev-credentials.json")), pid: server.proc.pid });
  }

  // hoot and the peer alternate, so a change in the machine's load touches both alike.
  const targets: WrkTarget[] = [{ name: "bare hello", server: "bare", url: hello.url, path: "/", method: "GET", headers: {}, pid: hello.proc.pid }];
  for (const key of ["get", "loginDeveloper", "loginPlayer", "createPlayer"] as const) {
    targets.push({ ...hootTargets[key], pid: hoot.proc.pid });
    if (peerTargets && peerPid !== null) targets.push({ ...peerTargets[key], pid: peerPid });
    // The same token on a read that writes no audit row (one player's page of the list): what the GET's
    // `player.read` row costs is the difference (PROTOCOL.md section 8).
    if (key === "get") targets.push({ ...hootTargets.get, name: LIST, path: "/api/players?limit=1", pid: hoot.proc.pid });
    for (const other of others) targets.push({ ...other.targets[key], pid: other.pid });
  }
  // Ratios are taken within a round (hoot against the bare and peer runs of the same round) and the median round
  // is reported, so a burst of load from elsewhere on the machine moves one round, not the table.
  const runs = await runRounds(targets, { rounds: ROUNDS, seconds: SECONDS, warmup: WARMUP, connections: CONNECTIONS, threads, cpus: plan.load });

  const bareRuns = runs[0]!;
  const goals: Record<string, { bare: number; peer?: number }> = {
    [hootTargets.get.name]: { bare: 0.5, peer: 3 },
    [hootTargets.loginDeveloper.name]: { bare: 0.3, peer: 3 },
    [hootTargets.loginPlayer.name]: { bare: 0.3, peer: 3 },
    [hootTargets.createPlayer.name]: { bare: 0.2 },
  };
  const rows = targets.map((target, i) => {
    const mine = runs[i]!;
    const peerIndex = target.server === "hoot" ? targets.findIndex((t) => t.server === "peer" && t.name === target.name) : -1;
    const vsBare = median(mine.map((r, round) => r.rps / bareRuns[round]!.rps));
    const vsPeer = peerIndex >= 0 ? median(mine.map((r, round) => r.rps / runs[peerIndex]![round]!.rps)) : null;
    const goal = target.server === "hoot" ? goals[target.name] : undefined;
    let verdict = "";
    if (goal) {
      const parts = [`${vsBare >= goal.bare ? "met" : "NOT met"} (bare >= ${goal.bare.toFixed(2)})`];
      if (goal.peer !== undefined) parts.push(vsPeer === null ? "peer: n/a" : `${vsPeer >= goal.peer ? "met" : "NOT met"} (peer >= ${goal.peer}x)`);
      verdict = parts.join(", ");
    }
    return {
      target: target.name,
      server: target.server === "bare" ? "Bun.serve" : target.server.startsWith("hoot") ? target.server : "fastify peer",
      "req/s": Math.round(median(mine.map((r) => r.rps))),
      "p50 ms": ms(median(mine.map((r) => r.p50))),
      "p99 ms": ms(median(mine.map((r) => r.p99))),
      errors: mine.reduce((n, r) => n + r.errors, 0),
      "CPU µs/req": cpuMedian(mine),
      "CPU vs peer":
        peerIndex >= 0 && cpuMedian(mine) !== "" && cpuMedian(runs[peerIndex]!) !== ""
          ? `${(Number(cpuMedian(runs[peerIndex]!)) / Number(cpuMedian(mine))).toFixed(2)}x`
          : "",
      "vs bare": target.server === "bare" ? "1" : vsBare.toFixed(2),
      "vs peer": vsPeer === null ? "" : `${vsPeer.toFixed(2)}x`,
      "goal (issue 18)": verdict,
    };
  });

  console.log(
    `\nhoot HTTP benchmark: wrk -t${threads} -c${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS}s per target (after ${WARMUP}s of warm-up each), loopback`,
  );
  for (const line of machineLines(plan, { server: "each server (bare, hoot, peer; one at a time under load)", load: "wrk" })) console.log(line);
  console.log(`peer: Node ${nodeVersion()} + Fastify + better-sqlite3 + jsonwebtoken (bench/peers/fastify): ${peerNote}`);
  const bareRps = bareRuns.map((r) => r.rps);
  console.log("figures are medians over the rounds; ratios are per round (same round's bare / peer run), then the median.");
  console.log(
    `bare Bun.serve ranged ${Math.round(Math.min(...bareRps))}-${Math.round(Math.max(...bareRps))} req/s over the rounds: the spread shows the run's noise.`,
  );
  console.log("CPU µs/req: the server's own CPU time (all threads) per request during the run, which other load on the machine barely moves;");
  console.log("'CPU vs peer' is how many times less CPU hoot spent per request than the peer (a core's worth of requests, compared).\n");
  printTable(rows);
  const failed = rows.filter((r) => r.errors > 0);
  if (failed.length > 0)
    console.log(
      `\nwarning: ${failed.map((r) => `${r.server} ${r.target}`).join("; ")} had errors (non-2xx answers or socket errors): those rates do not count`,
    );
} finally {
  for (const s of servers) s.proc.kill("SIGTERM");
  await Promise.all(servers.map((s) => s.proc.exited));
  rmSync(dir, { recursive: true, force: true });
}

/** The median CPU µs per request of some runs, to one decimal, or "" when it was not measured. */
function cpuMedian(runs: { cpuUs: number | null }[]): string {
  const values = runs.map((r) => r.cpuUs).filter((v): v is number => v !== null);
  return values.length ? median(values).toFixed(1) : "";
}

function nodeVersion(): string {
  const node = Bun.which("node");
  return node ? new TextDecoder().decode(Bun.spawnSync([node, "--version"]).stdout).trim() : "(none)";
}

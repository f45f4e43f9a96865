/**
 * bun run bench:http — hoot's hot HTTP paths next to a bare `Bun.serve` hello and a Node peer (Fastify +
 * better-sqlite3 + jsonwebtoken, bench/peers/fastify/, doing the same duties), in one run, with the same load
 * generator: `wrk` on its own core, every server on one other core (see bench/machine.ts). Targets (issue 18):
 *   authenticated GET /api/players/{pk}  >= 0.50 of bare and >= 3x the peer
 *   POST /api/auth/login (developer form; player form) >= 0.30 of bare and >= 3x the peer
 *   POST /api/players                    >= 0.20 of bare
 * Settings: BENCH_ROUNDS (3), BENCH_SECONDS (2 per target per round), BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS (64), BENCH_WRK_THREADS
 * (one per load core), BENCH_SERVER_CPUS / BENCH_LOAD_CPUS (machine.ts), BENCH_NO_PEER=1 (skip the peer).
 * Needs wrk (Debian: `apt-get update && apt-get install -y wrk`); installs the peer's packages with `npm ci`
 * in its folder when they are missing. Nothing is downloaded from anywhere else.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { printTable } from "./load.ts";
import { cpuPlan, machineLines, ms, pinSelf, pinned } from "./machine.ts";
import { MAIN, spawnServer } from "../test/helpers/process.ts";

// wrk takes whole seconds.
const SECONDS = Math.max(1, Math.round(Number(process.env.BENCH_SECONDS ?? 2)));
const ROUNDS = Math.max(1, Math.round(Number(process.env.BENCH_ROUNDS ?? 3)));
const WARMUP = Math.max(0, Math.round(Number(process.env.BENCH_WARMUP_SECONDS ?? 1)));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const PEER_DIR = join(import.meta.dir, "peers/fastify");
const WRK_SCRIPT = join(import.meta.dir, "wrk.lua");

const wrk = Bun.which("wrk");
if (!wrk) {
  console.error("bench:http needs wrk, the HTTP load generator. Install it from Debian:\n  apt-get update && apt-get install -y wrk\n(or your distribution's wrk package), then run this again.");
  process.exit(1);
}

const plan = cpuPlan();
pinSelf(plan.load);
const threads = Number(process.env.BENCH_WRK_THREADS ?? Math.max(1, plan.load?.split(/[,-]/).length ?? 1));
const peerWanted = process.env.BENCH_NO_PEER !== "1";
const peerNote = peerWanted ? await preparePeer() : "skipped (BENCH_NO_PEER=1)";

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
  let peer: Server | null = null;
  const peerDir = sub("peer");
  if (peerNote === "ok") {
    peer = await spawnServer(peerDir, { PEER_DATA_DIR: peerDir }, pinned(plan.server, [Bun.which("node")!, join(PEER_DIR, "server.js")]));
    servers.push(peer);
  }

  type Target = { name: string; server: "bare" | "hoot" | "peer"; url: string; method: "GET" | "POST"; headers: Record<string, string>; body?: string; path: string };
  const targets: Target[] = [{ name: "bare hello", server: "bare", url: hello.url, path: "/", method: "GET", headers: {} }];
  const shapes = async (server: "hoot" | "peer", url: string, credentialsFile: string) => {
    const creds = JSON.parse(readFileSync(credentialsFile, "utf8")) as { developer_api_key: string; service_account_api_key: string };
    const json = { "content-type": "application/json" };
    const login = async (body: unknown) => {
      const res = await fetch(`${url}/api/auth/login`, { method: "POST", headers: json, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${server}: login answered ${res.status}: ${await res.text()}`);
      return String(((await res.json()) as { access_token: string }).access_token);
    };
    const devLogin = { api_key: creds.developer_api_key };
    const token = await login(devLogin);
    const auth = { ...json, authorization: `Bearer ${token}` };
    const made = await fetch(`${url}/api/players`, { method: "POST", headers: auth, body: JSON.stringify({ external_id: "bench-player" }) });
    if (made.status !== 201) throw new Error(`${server}: POST /api/players answered ${made.status}: ${await made.text()}`);
    const player = (await made.json()) as { pk: number; federated_id: string };
    const playerLogin = { api_key: creds.service_account_api_key, federated_id: player.federated_id };
    await login(playerLogin);
    const got = await fetch(`${url}/api/players/${player.pk}`, { headers: auth });
    const body = (await got.json()) as { pk?: number; federated_id?: string };
    if (got.status !== 200 || body.pk !== player.pk || body.federated_id !== player.federated_id) throw new Error(`${server}: GET /api/players/{pk} answered ${got.status}`);
    return {
      get: { server, url, path: `/api/players/${player.pk}`, method: "GET", headers: { authorization: `Bearer ${token}` } },
      loginDev: { server, url, path: "/api/auth/login", method: "POST", headers: json, body: JSON.stringify(devLogin) },
      loginPlayer: { server, url, path: "/api/auth/login", method: "POST", headers: json, body: JSON.stringify(playerLogin) },
      create: { server, url, path: "/api/players", method: "POST", headers: auth, body: JSON.stringify({ external_id: "b-{n}" }) },
    } satisfies Record<string, Omit<Target, "name">>;
  };
  const h = await shapes("hoot", hoot.url, join(hootDir, "data/dev-credentials.json"));
  const p = peer ? await shapes("peer", peer.url, join(peerDir, "dev-credentials.json")) : null;
  // hoot and the peer alternate, so a change in the machine's load touches both alike.
  const pairs: [string, keyof typeof h][] = [
    ["GET /api/players/{pk}", "get"],
    ["POST /api/auth/login (developer)", "loginDev"],
    ["POST /api/auth/login (player)", "loginPlayer"],
    ["POST /api/players", "create"],
  ];
  for (const [name, key] of pairs) {
    targets.push({ name, ...h[key] });
    if (p) targets.push({ name, ...p[key] });
  }

  // Warm every path up once (JIT, prepared statements, the peer's V8), then ROUNDS rounds of every target in
  // turn. Ratios are taken within a round (hoot against the bare and peer runs just before it) and the
  // median round is reported, so a burst of load from elsewhere on the machine moves one round, not the table.
  if (WARMUP > 0) for (const target of targets) await runWrk(target, WARMUP);
  const runs: WrkResult[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, target] of targets.entries()) runs[i]!.push(await runWrk(target, SECONDS));
    process.stderr.write(`  round ${round + 1}/${ROUNDS}: ${targets.map((t, i) => `${t.server} ${Math.round(runs[i]![round]!.rps)}`).join(", ")}\n`);
  }

  const bareRuns = runs[0]!;
  const indexOf = (server: string, name: string) => targets.findIndex((t) => t.server === server && t.name === name);
  const goals: Record<string, { bare: number; peer?: number }> = {
    "GET /api/players/{pk}": { bare: 0.5, peer: 3 },
    "POST /api/auth/login (developer)": { bare: 0.3, peer: 3 },
    "POST /api/auth/login (player)": { bare: 0.3, peer: 3 },
    "POST /api/players": { bare: 0.2 },
  };
  const rows = targets.map((target, i) => {
    const mine = runs[i]!;
    const peerIndex = target.server === "hoot" ? indexOf("peer", target.name) : -1;
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
      server: target.server === "bare" ? "Bun.serve" : target.server === "hoot" ? "hoot" : "fastify peer",
      "req/s": Math.round(median(mine.map((r) => r.rps))),
      "p50 ms": ms(median(mine.map((r) => r.p50))),
      "p99 ms": ms(median(mine.map((r) => r.p99))),
      errors: mine.reduce((n, r) => n + r.errors, 0),
      "vs bare": target.server === "bare" ? "1" : vsBare.toFixed(2),
      "vs peer": vsPeer === null ? "" : `${vsPeer.toFixed(2)}x`,
      "goal (issue 18)": verdict,
    };
  });

  console.log(`\nhoot HTTP benchmark: wrk -t${threads} -c${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS}s per target (after ${WARMUP}s of warm-up each), loopback`);
  for (const line of machineLines(plan, { server: "each server (bare, hoot, peer; one at a time under load)", load: "wrk" })) console.log(line);
  console.log(`peer: Node ${nodeVersion()} + Fastify + better-sqlite3 + jsonwebtoken (bench/peers/fastify): ${peerNote}`);
  const bareRps = bareRuns.map((r) => r.rps);
  console.log(`figures are medians over the rounds; ratios are per round (same round's bare / peer run), then the median.`);
  console.log(`bare Bun.serve ranged ${Math.round(Math.min(...bareRps))}-${Math.round(Math.max(...bareRps))} req/s over the rounds: the spread shows the run's noise.\n`);
  printTable(rows);
  const results = targets.map((t, i) => ({ ...t, errors: runs[i]!.reduce((n, r) => n + r.errors, 0) }));
  const failed = results.filter((r) => r.errors > 0);
  if (failed.length > 0) console.log(`\nwarning: ${failed.map((r) => `${r.server} ${r.name}`).join("; ")} had errors (non-2xx answers or socket errors): those rates do not count`);
} finally {
  for (const s of servers) s.proc.kill("SIGTERM");
  await Promise.all(servers.map((s) => s.proc.exited));
  rmSync(dir, { recursive: true, force: true });
}

interface WrkResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

/** One wrk run against `target` for `seconds`; wrk is pinned to the load cores. */
async function runWrk(target: { url: string; path: string; method: string; headers: Record<string, string>; body?: string }, seconds: number): Promise<WrkResult> {
  const args = [wrk!, `-t${threads}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--timeout", "5s", "-s", WRK_SCRIPT];
  for (const [k, v] of Object.entries(target.headers)) args.push("-H", `${k}: ${v}`);
  args.push(target.url + target.path);
  const proc = Bun.spawn(pinned(plan.load, args), {
    env: { ...process.env, WRK_METHOD: target.method, WRK_BODY: target.body ?? "", WRK_RUN: crypto.randomUUID().slice(0, 8) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const line = /^WRK_JSON (.*)$/m.exec(out)?.[1];
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${err || out}`);
  const r = JSON.parse(line) as { requests: number; duration_us: number; connect: number; read: number; write: number; status: number; timeout: number; p50_us: number; p99_us: number };
  const errors = r.connect + r.read + r.write + r.status + r.timeout;
  return { requests: r.requests, errors, rps: r.requests / (r.duration_us / 1e6), p50: r.p50_us / 1000, p99: r.p99_us / 1000 };
}

/** "ok" when the peer can run (installing its packages with `npm ci` if needed), else why not. */
async function preparePeer(): Promise<string> {
  const node = Bun.which("node");
  const npm = Bun.which("npm");
  if (!node || !npm) return "skipped: node and npm are needed for the peer";
  if (existsSync(join(PEER_DIR, "node_modules/better-sqlite3/build/Release/better_sqlite3.node")) && existsSync(join(PEER_DIR, "node_modules/fastify"))) return "ok";
  process.stderr.write("bench:http: installing the Fastify peer's packages (npm ci in bench/peers/fastify; better-sqlite3 compiles from source, about a minute)…\n");
  // build_from_source: better-sqlite3's installer would otherwise try to download a prebuilt binary first.
  const proc = Bun.spawn([npm, "ci", "--no-audit", "--no-fund"], { cwd: PEER_DIR, env: { ...process.env, npm_config_build_from_source: "true" }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) {
    process.stderr.write(out + err);
    return `skipped: npm ci failed in ${PEER_DIR} (exit ${code}; a C++ compiler, make and python3 are needed to build better-sqlite3)`;
  }
  return "ok";
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function nodeVersion(): string {
  const node = Bun.which("node");
  return node ? new TextDecoder().decode(Bun.spawnSync([node, "--version"]).stdout).trim() : "(none)";
}

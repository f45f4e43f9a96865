/**
 * bun run bench:cluster — hoot on several nodes (issue 17): a throwaway PostgreSQL (.ci/postgres.sh), 1, 2 and
 * 3 `hoot serve` nodes on it behind HAProxy from Debian (round robin, websocket upgrades pass through), and wrk
 * for the player login and an authenticated GET (req/s, p99), next to one node on SQLite without a balancer,
 * in one run. Plus the revocation latency: a player deleted through node 1, the close frame of that player's
 * socket held on the last node (PostgreSQL) or on the same node (SQLite), timed from the HTTP answer.
 * Settings: BENCH_SECONDS (3 per cell), BENCH_WARMUP_SECONDS (1), BENCH_CONNECTIONS (64), BENCH_REVOCATIONS (20).
 * Needs wrk and haproxy (Debian: `apt-get update && apt-get install -y wrk haproxy`) and PostgreSQL's server
 * (`.ci/postgres.sh` installs Debian's when missing); without haproxy or PostgreSQL it says so and exits 0.
 * Every node, PostgreSQL, HAProxy and wrk share this machine's cores: more nodes add no cores here, so the
 * figures show what the balancer and the shared database cost, not how a real cluster of machines scales.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { MAIN, spawnServer } from "../test/helpers/process.ts";
import { apiTargets } from "./api-targets.ts";
import { printTable } from "./load.ts";
import { cpuPlan, machineLines, ms } from "./machine.ts";
import { median, requireWrk, runWrk, type WrkTarget } from "./wrk.ts";

const SECONDS = Math.max(1, Math.round(Number(process.env.BENCH_SECONDS ?? 3)));
const WARMUP = Math.max(0, Math.round(Number(process.env.BENCH_WARMUP_SECONDS ?? 1)));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const REVOCATIONS = Math.max(1, Number(process.env.BENCH_REVOCATIONS ?? 20));
const ROOT = join(import.meta.dir, "..");

requireWrk("bench:cluster");
const haproxy = Bun.which("haproxy") ?? Bun.which("haproxy", { PATH: "/usr/sbin:/usr/local/sbin" });
if (!haproxy) {
  console.log("bench:cluster skipped: HAProxy is not installed. Install it from Debian: apt-get update && apt-get install -y haproxy");
  process.exit(0);
}

type Server = Awaited<ReturnType<typeof spawnServer>>;
const children: { kill(signal?: string | number): void; exited: Promise<number> }[] = [];
const dir = mkdtempSync(join(tmpdir(), "hoot-bench-cluster-"));
let pgDir: string | null = null;
const wrkOptions = { connections: CONNECTIONS, threads: 1, cpus: null };

try {
  const pg = Bun.spawnSync(["bash", join(ROOT, ".ci/postgres.sh"), "start"], { stdout: "pipe", stderr: "pipe" });
  const exported = /HOOT_TEST_DATABASE_URL=(\S+) HOOT_TEST_PG_DIR=(\S+)/.exec(pg.stdout.toString());
  if (pg.exitCode !== 0 || !exported) {
    console.log(`bench:cluster skipped: could not start PostgreSQL (.ci/postgres.sh start): ${pg.stderr.toString().trim().split("\n").slice(-3).join(" ")}`);
    process.exit(0);
  }
  pgDir = exported[2]!;
  const adminUrl = exported[1]!;
  const admin = new SQL({ url: adminUrl, max: 1 });
  await admin.unsafe("CREATE DATABASE hoot_bench");
  await admin.close();
  const dbUrl = Object.assign(new URL(adminUrl), { pathname: "/hoot_bench" }).toString();
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
  const quiet = { HOOT_LOG_LEVEL: "warn", HOOT_LOGIN_FAILURES_PER_MINUTE: "100000", HOOT_WS_MAX_SOCKETS_PER_PLAYER: "1000" };

  const start = async (name: string, env: Record<string, string>): Promise<Server> => {
    const home = join(dir, name);
    mkdirSync(home);
    const server = await spawnServer(home, { HOOT_DATA_DIR: join(home, "data"), ...quiet, ...env }, [process.execPath, MAIN]);
    children.push(server.proc);
    return server;
  };

  type Row = Record<string, string | number>;
  const rows: Row[] = [];
  const measure = async (setup: string, url: string, credentials: string, revoke: { via: string; held: string }) => {
    const targets = await apiTargets(setup, url, credentials);
    const cell = async (target: WrkTarget) => {
      if (WARMUP > 0) await runWrk(target, WARMUP, wrkOptions);
      return runWrk(target, SECONDS, wrkOptions);
    };
    const login = await cell(targets.loginPlayer);
    const get = await cell(targets.get);
    const { latencies, answers } = await revocationLatencies(revoke.via, revoke.held, credentials);
    process.stderr.write(`  ${setup}: login ${Math.round(login.rps)}/s, GET ${Math.round(get.rps)}/s, revocation ${ms(median(latencies))} ms\n`);
    rows.push({
      setup,
      "login req/s": Math.round(login.rps),
      "login p99 ms": ms(login.p99),
      "GET req/s": Math.round(get.rps),
      "GET p99 ms": ms(get.p99),
      errors: login.errors + get.errors,
      "DELETE answer ms": ms(median(answers)),
      "socket closed ms (median)": ms(median(latencies)),
      "(max)": ms(Math.max(...latencies)),
    });
  };

  // One node on SQLite, no balancer: the default deployment.
  const single = await start("sqlite", {});
  await measure("SQLite, 1 node (no balancer)", single.url, join(dir, "sqlite/data/dev-credentials.json"), { via: single.url, held: single.url });
  single.proc.kill("SIGTERM");
  await single.proc.exited;

  // Three nodes on PostgreSQL; node 1 starts first and makes the dev credentials.
  const nodes = [await start("node1", { HOOT_DATABASE_URL: dbUrl, HOOT_SECRET_KEY: secret })];
  for (const name of ["node2", "node3"]) nodes.push(await start(name, { HOOT_DATABASE_URL: dbUrl, HOOT_SECRET_KEY: secret }));
  const credentials = join(dir, "node1/data/dev-credentials.json");
  await measure("PostgreSQL, 1 node (no balancer)", nodes[0]!.url, credentials, { via: nodes[0]!.url, held: nodes[0]!.url });
  for (const count of [1, 2, 3]) {
    const balancer = await startHaproxy(
      haproxy,
      nodes.slice(0, count).map((n) => n.url),
      join(dir, `haproxy-${count}.cfg`),
    );
    children.push(balancer.proc);
    try {
      await measure(`PostgreSQL, ${count} node${count > 1 ? "s" : ""} behind HAProxy`, balancer.url, credentials, {
        via: nodes[0]!.url,
        held: nodes[count - 1]!.url,
      });
    } finally {
      balancer.proc.kill("SIGTERM");
      await balancer.proc.exited;
    }
  }

  console.log(
    `\nhoot cluster benchmark: wrk -t1 -c${CONNECTIONS}, ${SECONDS}s per cell after ${WARMUP}s of warm-up, loopback; HAProxy ${haproxyVersion(haproxy)}, round robin`,
  );
  for (const line of machineLines(
    { ...cpuPlan(), server: null, load: null, unpinnedReason: "nodes, PostgreSQL, HAProxy and wrk share every core" },
    { server: "hoot nodes", load: "wrk" },
  ))
    console.log(line);
  console.log(`login = POST /api/auth/login (player form); GET = GET /api/players/{pk} with a developer token.`);
  console.log(
    `revocation: ${REVOCATIONS} players deleted through node 1 (direct), each with a socket on the last node (SQLite and 1 node: the same node); ms from sending the DELETE to its answer, and to the socket's close frame.`,
  );
  console.log("Every process shares this machine's cores, so more nodes add balancer and database work but no CPU: not a scaling figure.\n");
  printTable(rows);
} finally {
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(children.map((c) => c.exited));
  if (pgDir) Bun.spawnSync(["bash", join(ROOT, ".ci/postgres.sh"), "stop", pgDir], { stdout: "ignore", stderr: "ignore" });
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Deletes REVOCATIONS fresh players through `via`, each with an authenticated socket on `held`: ms from sending
 * each DELETE to its answer, and to the socket's close frame.
 */
async function revocationLatencies(via: string, held: string, credentialsFile: string): Promise<{ latencies: number[]; answers: number[] }> {
  const creds = (await Bun.file(credentialsFile).json()) as { developer_api_key: string; service_account_api_key: string };
  const post = async (url: string, path: string, body: unknown, token?: string) => {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    return (await res.json()) as Record<string, string & number>;
  };
  const devToken = (await post(via, "/api/auth/login", { api_key: creds.developer_api_key })).access_token;
  const latencies: number[] = [];
  const answers: number[] = [];
  for (let i = 0; i < REVOCATIONS; i++) {
    const player = await post(via, "/api/players", { external_id: `revoked-${crypto.randomUUID()}` }, devToken);
    const token = (await post(via, "/api/auth/login", { api_key: creds.service_account_api_key, federated_id: player.federated_id })).access_token;
    const ws = new WebSocket(`${held.replace(/^http/, "ws")}/interact`);
    let closedAt = 0;
    const closed = new Promise<void>((resolve) => (ws.onclose = () => ((closedAt = performance.now()), resolve())));
    const authenticated = new Promise<void>((resolve, reject) => {
      ws.onmessage = (e) => (JSON.parse(String(e.data)).kind === "authenticate" ? resolve() : reject(new Error(String(e.data))));
    });
    await new Promise<void>((resolve) => (ws.onopen = () => resolve()));
    ws.send(
      JSON.stringify({ type: "request", kind: "authenticate", uid: crypto.randomUUID(), client_start_time: new Date().toISOString(), access_token: token }),
    );
    await authenticated;
    ws.onmessage = null;
    const sentAt = performance.now();
    const res = await fetch(`${via}/api/players/${player.pk}`, { method: "DELETE", headers: { authorization: `Bearer ${devToken}` } });
    answers.push(performance.now() - sentAt);
    if (res.status !== 204) throw new Error(`DELETE answered ${res.status}`);
    await Promise.race([closed, Bun.sleep(5000).then(() => Promise.reject(new Error("the socket was not closed within 5 s")))]);
    latencies.push(closedAt - sentAt);
  }
  return { latencies, answers };
}

/** HAProxy in front of `backends` on a free loopback port, in the foreground (its pid is ours to stop). */
async function startHaproxy(binary: string, backends: string[], configFile: string) {
  const port = await freePort();
  writeFileSync(
    configFile,
    [
      "global",
      "  maxconn 4096",
      "defaults",
      "  mode http",
      "  timeout connect 5s",
      "  timeout client 60s",
      "  timeout server 60s",
      "  timeout tunnel 1h",
      "frontend hoot",
      `  bind 127.0.0.1:${port}`,
      "  default_backend nodes",
      "backend nodes",
      "  balance roundrobin",
      "  option forwardfor",
      "  http-reuse safe",
      ...backends.map((url, i) => `  server node${i + 1} ${new URL(url).host}`),
      "",
    ].join("\n"),
  );
  const proc = Bun.spawn([binary, "-db", "-f", configFile], { stdout: "ignore", stderr: "pipe" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${url}/api/health`).catch(() => null))?.ok) break;
    if (i > 100 || proc.exitCode !== null) throw new Error(`haproxy did not start: ${await new Response(proc.stderr).text()}`);
    await Bun.sleep(50);
  }
  return { proc, url };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function haproxyVersion(binary: string): string {
  return /version (\S+)/.exec(Bun.spawnSync([binary, "-v"]).stdout.toString())?.[1] ?? "?";
}

/**
 * The HTTP load harness shared by `bench:http` (and meant for `bench:cluster`): wrk runs a target (method, path,
 * headers, body; see bench/wrk.lua) for a few seconds on the load cores and reports req/s and latency
 * percentiles; `runRounds` runs a list of targets in turn for several rounds, so hoot and its baselines share
 * whatever else the machine is doing, and ratios can be taken within a round.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pinned } from "./machine.ts";

const WRK_SCRIPT = join(import.meta.dir, "wrk.lua");

export interface WrkTarget {
  /** What the row is called, e.g. "GET /api/players/{pk}". */
  name: string;
  /** Which server answers, e.g. "hoot", "bare", "peer". */
  server: string;
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:8080 */
  url: string;
  path: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  /** Request body; every "{n}" becomes a value unique to the request. */
  body?: string;
  /** The server's process id: with it, the CPU time the server spent per request is measured too. */
  pid?: number;
}

export interface WrkResult {
  requests: number;
  /** Non-2xx/3xx answers plus connect, read, write errors and timeouts. */
  errors: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  /** CPU time (all the server's threads, user + system) per request in µs; null without a pid or /proc. */
  cpuUs: number | null;
}

/** CPU time (ms) `pid` has used so far, all threads, from /proc/<pid>/stat (clock ticks of 10 ms); null off Linux. */
export function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export interface WrkOptions {
  connections: number;
  threads: number;
  /** taskset list for wrk, or null for unpinned. */
  cpus: string | null;
}

/** The path of wrk; exits with how to install it when it is missing (nothing is downloaded). */
export function requireWrk(benchmark: string): string {
  const wrk = Bun.which("wrk");
  if (wrk) return wrk;
  console.error(
    `${benchmark} needs wrk, the HTTP load generator. Install it from Debian:\n  apt-get update && apt-get install -y wrk\n(or your distribution's wrk package), then run this again.`,
  );
  process.exit(1);
}

/** One wrk run against `target` for `seconds` (whole seconds, at least 1). */
export async function runWrk(target: WrkTarget, seconds: number, options: WrkOptions): Promise<WrkResult> {
  const args = [
    requireWrk("this benchmark"),
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${Math.max(1, Math.round(seconds))}s`,
    "--timeout",
    "5s",
    "-s",
    WRK_SCRIPT,
  ];
  for (const [k, v] of Object.entries(target.headers)) args.push("-H", `${k}: ${v}`);
  args.push(target.url + target.path);
  const cpuBefore = target.pid === undefined ? null : processCpuMs(target.pid);
  const proc = Bun.spawn(pinned(options.cpus, args), {
    env: { ...process.env, WRK_METHOD: target.method, WRK_BODY: target.body ?? "", WRK_RUN: crypto.randomUUID().slice(0, 8) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const line = /^WRK_JSON (.*)$/m.exec(out)?.[1];
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${err || out}`);
  const r = JSON.parse(line) as Record<
    "requests" | "duration_us" | "connect" | "read" | "write" | "status" | "timeout" | "p50_us" | "p90_us" | "p99_us",
    number
  >;
  const cpuAfter = target.pid === undefined ? null : processCpuMs(target.pid);
  return {
    cpuUs: cpuBefore === null || cpuAfter === null || r.requests === 0 ? null : ((cpuAfter - cpuBefore) * 1000) / r.requests,
    requests: r.requests,
    errors: r.connect + r.read + r.write + r.status + r.timeout,
    rps: r.requests / (r.duration_us / 1e6),
    p50: r.p50_us / 1000,
    p90: r.p90_us / 1000,
    p99: r.p99_us / 1000,
  };
}

/**
 * Warms every target up once for `warmup` seconds (JIT, prepared statements), then runs `rounds` rounds of every
 * target in turn for `seconds` each. Returns runs[target][round]; progress goes to stderr.
 */
export async function runRounds(targets: WrkTarget[], o: WrkOptions & { rounds: number; seconds: number; warmup: number }): Promise<WrkResult[][]> {
  if (o.warmup > 0) for (const target of targets) await runWrk(target, o.warmup, o);
  const runs: WrkResult[][] = targets.map(() => []);
  for (let round = 0; round < o.rounds; round++) {
    for (const [i, target] of targets.entries()) runs[i]!.push(await runWrk(target, o.seconds, o));
    process.stderr.write(`  round ${round + 1}/${o.rounds}: ${targets.map((t, i) => `${t.server} ${Math.round(runs[i]![round]!.rps)}`).join(", ")}\n`);
  }
  return runs;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

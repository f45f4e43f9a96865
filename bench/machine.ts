/**
 * What every benchmark prints about where it ran, and how it keeps the server and the load apart: the
 * server process is pinned to one core and the load generator (wrk, or a Bun process of ours) to another
 * with `taskset`, so the load does not steal the server's CPU and the ratios compare like with like.
 *   BENCH_SERVER_CPUS  cores for the server under test (default: the first core this process may use)
 *   BENCH_LOAD_CPUS    cores for the load generator (default: the second one)
 * With one usable core, or without `taskset` (util-linux), nothing is pinned and the table says so.
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";

export interface CpuPlan {
  /** Cores the server under test runs on, as a taskset list ("0"), or null when not pinned. */
  server: string | null;
  /** Cores the load generator runs on, or null when not pinned. */
  load: string | null;
  /** Why nothing is pinned, when it is not. */
  unpinnedReason?: string;
}

/** The cores this process may run on (its affinity, read before pinSelf narrows it), from /proc. */
export function allowedCpus(): number[] {
  return ALLOWED;
}

const ALLOWED = readAllowedCpus();

function readAllowedCpus(): number[] {
  try {
    const list = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? "";
    const out: number[] = [];
    for (const part of list.split(",")) {
      const [a, b] = part.split("-").map(Number);
      if (a === undefined || Number.isNaN(a)) continue;
      for (let c = a; c <= (b ?? a); c++) out.push(c);
    }
    if (out.length > 0) return out;
  } catch {
    // not Linux
  }
  return cpus().map((_, i) => i);
}

/** Decides which cores the server and the load use (see the module comment). */
export function cpuPlan(): CpuPlan {
  if (!Bun.which("taskset")) return { server: null, load: null, unpinnedReason: "taskset not found (apt-get install -y util-linux)" };
  const allowed = allowedCpus();
  const server = process.env.BENCH_SERVER_CPUS ?? (allowed.length >= 2 ? String(allowed[0]) : null);
  const load = process.env.BENCH_LOAD_CPUS ?? (allowed.length >= 2 ? String(allowed[1]) : null);
  if (server === null || load === null) return { server: null, load: null, unpinnedReason: "only one usable core" };
  return { server, load };
}

/** `argv` run under `taskset -c cpus`, or unchanged when `cpus` is null. */
export function pinned(cpus: string | null, argv: string[]): string[] {
  return cpus === null ? argv : ["taskset", "-c", cpus, ...argv];
}

/** Pins this process (every thread of it) to `cpus`: the orchestrating bench process stays off the server's core. */
export function pinSelf(cpus: string | null): void {
  if (cpus === null) return;
  Bun.spawnSync(["taskset", "-a", "-p", "-c", cpus, String(process.pid)], { stdout: "ignore", stderr: "ignore" });
}

/** One line: cores, CPU model, memory, runtime, and how busy the machine is right now. */
export function machineLine(): string {
  const model = cpus()[0]?.model?.trim() || "unknown CPU";
  const allowed = allowedCpus();
  const [l1, l5] = loadavg();
  return (
    `machine: ${cpus().length} cores (${allowed.length} usable: ${allowed.join(",")}), ${model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `bun ${Bun.version}, ${process.platform} ${process.arch}; load average ${l1!.toFixed(2)} / ${l5!.toFixed(2)} (1 / 5 min) at start`
  );
}

/** Lines describing the machine and the pinning, printed above every table. */
export function machineLines(plan: CpuPlan, roles: { server: string; load: string }): string[] {
  const allowed = allowedCpus();
  const [l1] = loadavg();
  const lines = [machineLine()];
  if (plan.server !== null) lines.push(`pinning: ${roles.server} on core ${plan.server}; ${roles.load} on core ${plan.load} (taskset)`);
  else lines.push(`pinning: none (${plan.unpinnedReason}); ${roles.server} and ${roles.load} share the cores, so figures are pessimistic`);
  if (l1! > allowed.length * 0.5)
    lines.push(`note: the machine was busy when this started (load ${l1!.toFixed(2)} on ${allowed.length} cores): figures are noisy`);
  return lines;
}

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close). */
export function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/** Milliseconds with two decimals, for tables. */
export function ms(value: number): number {
  return Math.round(value * 100) / 100;
}

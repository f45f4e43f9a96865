/**
 * `bun run bench:profile-http`: where a hot HTTP path's CPU goes. For each path (authed GET, developer login,
 * player login, POST /api/players) a fresh `hoot serve` runs under Bun's sampling profiler (`--cpu-prof`, every
 * 250 µs), wrk drives that one path for BENCH_SECONDS (5) after a warm-up, the server stops with SIGTERM and writes
 * its profile, and the script prints the self time grouped by where the code lives (Bun's runtime and
 * natives, Elysia, TypeBox, drizzle, pino, prom-client, jose, hoot's own folders, idle) and the top functions.
 * Shares of samples are robust to a busy machine; the absolute req/s are not. Profiles are kept in
 * BENCH_PROFILE_DIR (a temp folder by default) for Chrome DevTools or speedscope.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN, spawnServer } from "../test/helpers/process.ts";
import { type ApiTargets, apiTargets } from "./api-targets.ts";
import { printSummary, summarise } from "./cpu-profile.ts";
import { cpuPlan, machineLine, pinned } from "./machine.ts";
import { requireWrk, runWrk } from "./wrk.ts";

requireWrk("bench:profile-http");
const SECONDS = Math.max(1, Math.round(Number(process.env.BENCH_SECONDS ?? 5)));
const TOP = Number(process.env.BENCH_PROFILE_TOP ?? 12);
const outDir = process.env.BENCH_PROFILE_DIR ?? mkdtempSync(join(tmpdir(), "hoot-profile-"));
const plan = cpuPlan();

const paths: (keyof ApiTargets)[] = ["get", "loginDeveloper", "loginPlayer", "createPlayer"];
console.log(machineLine());
console.log(`profiles: ${outDir} (bun --cpu-prof, 250 µs sampling); wrk -t1 -c64, ${SECONDS} s per path after 1 s of warm-up; one fresh server per path\n`);
for (const path of paths) {
  const dir = mkdtempSync(join(tmpdir(), "hoot-profile-data-"));
  const profDir = join(outDir, path);
  const command = pinned(plan.server, [process.execPath, "--cpu-prof", `--cpu-prof-dir=${profDir}`, "--cpu-prof-interval=250", MAIN]);
  const server = await spawnServer(dir, { HOOT_LOG_LEVEL: "warn", HOOT_LOGIN_FAILURES_PER_MINUTE: "100000" }, command);
  const targets = await apiTargets("hoot", server.url, join(dir, "data/dev-credentials.json"));
  const target = { ...targets[path], pid: server.proc.pid };
  const options = { connections: 64, threads: 1, cpus: plan.load };
  await Bun.sleep(1500); // past the deferred warm-ups (safety rules, speech workers)
  await runWrk(target, 1, options);
  const started = performance.now();
  const result = await runWrk(target, SECONDS, options);
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  const windowUs = (performance.now() - started) * 1000;
  const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) {
    console.log(`${target.name}: no profile written`);
    continue;
  }
  const { groups, functions, total } = summarise(join(profDir, file), windowUs);
  console.log(
    `## ${target.name}: ${Math.round(result.rps)} req/s, ${result.cpuUs?.toFixed(1) ?? "?"} µs CPU/req (server, all threads), ${(total / 1000).toFixed(0)} ms of busy samples on the JavaScript thread during the run`,
  );
  printSummary(groups, functions, total, TOP);
}

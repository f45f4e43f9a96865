/**
 * bun run bench:startup — the compiled binary from an empty folder: time from launch to the first served
 * request (GET /api/health answered 200), next to a bare `Bun.serve` compiled the same way. Each run is a fresh
 * process in a fresh empty folder (so the first-run work is included: secret key, database, migrations, dev
 * bootstrap), pinned to the server core, while this process polls from the load core. A second launch in the
 * same folder ("restart") shows what the first run adds. Goal (issue 18): <= 50 ms from an empty folder.
 *   BENCH_STARTUP_RUNS (10 of each), BENCH_STARTUP_BINARY (use this hoot binary instead of building one),
 *   BENCH_STARTUP_TRACE=1 (also print a timeline of one launch: key syscalls from strace, when installed),
 *   BENCH_STARTUP_AFTER_MS (1000: how long each process is watched after its first answer)
 * Besides wall time, each launch reports the CPU time the process (all its threads, from /proc) had used when
 * its first answer arrived, which a busy machine barely changes, and the CPU it used in the next
 * BENCH_STARTUP_AFTER_MS: the work start-up deferred until after the first answer (warm-ups), shown so the
 * figures do not flatter.
 * The binary is built with scripts/build.ts (what `npm run build` runs) into a temporary folder, so the figures
 * are for the code as it is now and dist/ is left alone.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv } from "../test/helpers/process.ts";
import { percentile, printTable } from "./load.ts";
import { cpuPlan, freePort, machineLines, ms, pinned, pinSelf } from "./machine.ts";

const RUNS = Math.max(1, Number(process.env.BENCH_STARTUP_RUNS ?? 10));
const AFTER_MS = Math.max(0, Number(process.env.BENCH_STARTUP_AFTER_MS ?? 1000));
const root = join(import.meta.dir, "..");
const plan = cpuPlan();
pinSelf(plan.load);
const dir = mkdtempSync(join(tmpdir(), "hoot-bench-startup-"));

try {
  const hoot = process.env.BENCH_STARTUP_BINARY ?? join(dir, "hoot");
  if (!process.env.BENCH_STARTUP_BINARY) await run([process.execPath, join(root, "scripts/build.ts"), "--outfile", hoot], root);
  const helloFile = join(dir, "hello.ts");
  writeFileSync(helloFile, `Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT), fetch: () => Response.json({ status: "ok" }) });\n`);
  const bare = join(dir, "bare");
  await run([process.execPath, "build", "--compile", "--minify", helloFile, "--outfile", bare], dir);

  const samples = { bare: [] as Launch[], first: [] as Launch[], restart: [] as Launch[], noSpeech: [] as Launch[] };
  // Without the local speech engine its workers do not start (and warm up) beside the main thread: this row
  // shows what that warm-up costs a start-up on one core. The provider is never called here.
  const noSpeech = { HOOT_TTS_PROVIDER: "openai", HOOT_TTS_BASE_URL: "http://127.0.0.1:9/v1" };
  // One untimed launch of each first: the page cache then holds both binaries, as it would on a server.
  await launch(bare, "/", mkFolder("warm-bare"));
  await launch(hoot, "/api/health", mkFolder("warm-hoot"));
  for (let i = 0; i < RUNS; i++) {
    samples.bare.push(await launch(bare, "/", mkFolder(`bare-${i}`)));
    const folder = mkFolder(`hoot-${i}`);
    samples.first.push(await launch(hoot, "/api/health", folder));
    samples.restart.push(await launch(hoot, "/api/health", folder));
    samples.noSpeech.push(await launch(hoot, "/api/health", mkFolder(`hoot-nospeech-${i}`), noSpeech));
  }

  const row = (measure: string, launches: Launch[], goal = "", verdict = "") => {
    const served = launches.map((l) => l.servedMs);
    const listening = launches.map((l) => l.listeningMs).filter((v): v is number => v !== null);
    const cpu = launches.map((l) => l.cpuMs).filter((v): v is number => v !== null);
    const after = launches.map((l) => l.cpuAfterMs).filter((v): v is number => v !== null);
    return {
      measure,
      runs: launches.length,
      "p50 ms": ms(percentile(served, 0.5)),
      "max ms": ms(Math.max(...served)),
      "min ms": ms(Math.min(...served)),
      "'listening' line p50 ms": listening.length ? ms(percentile(listening, 0.5)) : "",
      "CPU ms to 1st answer p50": cpu.length ? ms(percentile(cpu, 0.5)) : "",
      [`CPU ms in next ${AFTER_MS} ms p50`]: after.length ? ms(percentile(after, 0.5)) : "",
      "goal (issue 18)": goal,
      verdict,
    };
  };
  const firstP50 = percentile(
    samples.first.map((l) => l.servedMs),
    0.5,
  );
  console.log(`\nhoot start-up benchmark: launch -> first served request (HTTP 200), ${RUNS} fresh processes each`);
  for (const line of machineLines(plan, { server: "the binary under test", load: "this process (polling every ~0.2 ms)" })) console.log(line);
  console.log(
    `binaries: ${process.env.BENCH_STARTUP_BINARY ? hoot : "hoot built now with scripts/build.ts"} (${mb(hoot)} MB); bare Bun.serve compiled with bun build --compile (${mb(bare)} MB)\n`,
  );
  printTable([
    row("bare Bun.serve (compiled)", samples.bare),
    row("hoot, empty folder (first run)", samples.first, "<= 50 ms", firstP50 <= 50 ? "met" : "NOT met"),
    row("hoot, restart in the same folder", samples.restart),
    row("hoot, empty folder, local speech engine off", samples.noSpeech),
  ]);
  console.log("('listening' column: when hoot's 'listening on' line reached this process; the rest, to the first 200, is the first request itself.");
  console.log(
    " CPU columns: CPU time of the whole process (every thread) when its first answer arrived, and in the time after it: what start-up moved off the path.",
  );
  console.log(" 'restart' skips the first-run work (secret key, migrations, dev bootstrap); 'speech engine off' skips the speech workers' warm-up.)");
  if (process.env.BENCH_STARTUP_TRACE === "1") await trace(hoot);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

interface Launch {
  servedMs: number;
  listeningMs: number | null;
  /** CPU time of the process (all threads) when its first answer arrived; null where /proc is not readable. */
  cpuMs: number | null;
  /** CPU time it used in the AFTER_MS after that. */
  cpuAfterMs: number | null;
}

/** CPU time (ms) of every thread of `pid` so far, from /proc/<pid>/task/<tid>/schedstat (ns on the CPU); null off Linux. */
function cpuOf(pid: number): number | null {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return ns / 1e6;
  } catch {
    return null;
  }
}

function mkFolder(name: string): string {
  const folder = join(dir, "runs", name);
  mkdirSync(folder, { recursive: true });
  return folder;
}

function mb(path: string): string {
  return (Bun.file(path).size / 2 ** 20).toFixed(0);
}

async function run(argv: string[], cwd: string): Promise<void> {
  const proc = Bun.spawn(argv, { cwd, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${argv.join(" ")} failed (${code}): ${out}${err}`);
}

/** Launches `binary` in `cwd` and polls `path` until it answers 200; then stops it. */
async function launch(binary: string, path: string, cwd: string, extraEnv: Record<string, string> = {}): Promise<Launch> {
  const port = freePort();
  const env = cleanEnv({ HOOT_HOST: "127.0.0.1", HOOT_PORT: String(port), PORT: String(port), ...extraEnv });
  const url = `http://127.0.0.1:${port}${path}`;
  const t0 = performance.now();
  const proc = Bun.spawn(pinned(plan.server, [binary]), { cwd, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  let listeningMs: number | null = null;
  let stderr = "";
  const reading = (async () => {
    for await (const chunk of proc.stderr as unknown as AsyncIterable<Uint8Array>) {
      stderr += new TextDecoder().decode(chunk);
      if (listeningMs === null && /listening on/.test(stderr)) listeningMs = performance.now() - t0;
    }
  })();
  const stdout = new Response(proc.stdout).text();
  let servedMs = -1;
  let cpuMs: number | null = null;
  const deadline = t0 + 30_000;
  while (servedMs < 0) {
    if (performance.now() > deadline || proc.exitCode !== null) {
      proc.kill("SIGKILL");
      throw new Error(`${binary} did not serve ${path} (exit ${proc.exitCode}): ${stderr.slice(-1000)}`);
    }
    try {
      const res = await fetch(url, { keepalive: false });
      if (res.status === 200) {
        servedMs = performance.now() - t0;
        cpuMs = cpuOf(proc.pid);
      }
      await res.arrayBuffer();
    } catch {
      // not listening yet
    }
  }
  let cpuAfterMs: number | null = null;
  if (AFTER_MS > 0 && cpuMs !== null) {
    await Bun.sleep(AFTER_MS);
    const later = cpuOf(proc.pid);
    cpuAfterMs = later === null ? null : later - cpuMs;
  }
  proc.kill("SIGTERM");
  await proc.exited;
  await Promise.all([reading, stdout]);
  return { servedMs, listeningMs, cpuMs, cpuAfterMs };
}

/**
 * One launch under strace: when the process writes its secret key (the first thing startServer does), opens its
 * database, writes the dev credentials, starts threads (speech workers), binds its port, accepts the first
 * connection and sends the first answer, relative to exec. Only a timeline for reading; it slows the process, so its figures are not the table's.
 */
async function trace(binary: string): Promise<void> {
  const strace = Bun.which("strace");
  if (!strace) {
    console.log("\ntrace: strace is not installed (apt-get install -y strace)");
    return;
  }
  const folder = mkFolder("trace");
  const log = join(dir, "strace.log");
  const port = freePort();
  const proc = Bun.spawn(pinned(plan.server, [strace, "-f", "-tt", "-e", "trace=execve,openat,clone,clone3,bind,listen,accept4,sendto", "-o", log, binary]), {
    cwd: folder,
    env: cleanEnv({ HOOT_HOST: "127.0.0.1", HOOT_PORT: String(port) }),
    stdout: "ignore",
    stderr: "ignore",
  });
  const deadline = performance.now() + 30_000;
  for (;;) {
    if (performance.now() > deadline) break;
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) break;
    } catch {
      await Bun.sleep(1);
    }
  }
  // SIGTERM to strace would only detach it: stop the traced hoot (strace's child) and strace exits with it.
  const children = (
    await Bun.file(`/proc/${proc.pid}/task/${proc.pid}/children`)
      .text()
      .catch(() => "")
  )
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  for (const child of children) process.kill(Number(child), "SIGTERM");
  if (children.length === 0) proc.kill("SIGKILL");
  await proc.exited;
  const lines = (await Bun.file(log).text()).split("\n");
  const time = (l: string) => {
    const m = /^\d+\s+(\d+):(\d+):([\d.]+)/.exec(l);
    return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
  };
  const start = time(lines[0] ?? "") ?? 0;
  const interesting = /execve|clone|bind\(|listen\(|accept4\(.*= \d|sendto\(|\.db"|secret\.key|dev-credentials/;
  console.log("\ntrace of one launch (strace -f; ms after exec; slower than untraced):");
  let shown = 0;
  for (const l of lines) {
    const t = time(l);
    if (t === null || !interesting.test(l) || /ENOENT/.test(l)) continue;
    console.log(`  ${((t - start) * 1000).toFixed(1).padStart(7)}  ${l.replace(/^\d+\s+[\d:.]+\s+/, "").slice(0, 140)}`);
    if (++shown >= 60) break;
  }
}

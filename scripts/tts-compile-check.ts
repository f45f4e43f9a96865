/**
 * Proves the local speech engine (flite, its worker and the LAME encoder) survives `bun build --compile`: builds a tiny executable from
 * test/engine/tts/fixtures/compiled-entry.ts plus the flite worker entrypoint, copies it alone into an empty
 * temporary folder, runs it there and checks that it spoke. Run: `npx bun scripts/tts-compile-check.ts`.
 *
 * It builds twice, because where Bun stores the worker inside the executable depends on the build's root folder:
 * once with the default root (here the repository, as the fixture lives in test/) and once with `--root src`,
 * the layout of the real build. Both use --minify like scripts/build.ts. The main build needs the same
 * extra entrypoint:
 *   bun build --compile --minify src/main.ts src/engine/tts/flite/worker.ts --outfile dist/hoot
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
export const COMPILE_ENTRYPOINTS = ["test/engine/tts/fixtures/compiled-entry.ts", "src/engine/tts/flite/worker.ts"];

export interface CompileCheckResult {
  bytes: number;
  frames: number;
  sampleRate: number;
  /** The first two bytes of the audio: FF FB for MPEG-1 Layer III without CRC. */
  firstBytes: number[];
  /** Every chunk's first frame takes no bits from before it. */
  decodableAlone: boolean;
  workerPath: string | null;
  /** flite's wasm and LAME's wasm came from inside the executable. */
  embeddedWasm: boolean;
  embeddedMp3Wasm: boolean;
}

/**
 * Builds, runs from an empty folder, and returns what the executable reported; throws on any failure.
 * @example const result = await compileCheck(); result.bytes > 0
 */
export async function compileCheck(extraArgs: string[] = [], entrypoints = COMPILE_ENTRYPOINTS): Promise<CompileCheckResult> {
  const buildDir = mkdtempSync(join(tmpdir(), "hoot-tts-build-"));
  const runDir = mkdtempSync(join(tmpdir(), "hoot-tts-run-"));
  try {
    const binary = join(buildDir, "tts-check");
    const build = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", ...extraArgs, ...entrypoints, "--outfile", binary], {
      cwd: ROOT,
      stderr: "pipe",
      stdout: "pipe",
    });
    if (build.exitCode !== 0) throw new Error(`bun build --compile failed:\n${build.stderr.toString()}`);
    const copied = join(runDir, "tts-check");
    copyFileSync(binary, copied);
    // No HOOT_* settings and a folder holding nothing but the binary: everything must come from inside it.
    const run = Bun.spawn([copied], { cwd: runDir, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => run.kill(), 30_000);
    const [stdout, stderr, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    clearTimeout(timer);
    if (code !== 0) throw new Error(`compiled executable exited with ${code}:\n${stderr}`);
    return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as CompileCheckResult;
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
    rmSync(runDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  let ok = true;
  for (const extraArgs of [[], ["--root", "src"]]) {
    const result = await compileCheck(extraArgs);
    const good =
      result.bytes > 1000 &&
      result.sampleRate === 44100 &&
      result.firstBytes.join() === "255,251" &&
      result.decodableAlone &&
      result.embeddedWasm &&
      result.embeddedMp3Wasm &&
      (result.workerPath?.includes("$bunfs") ?? false);
    console.log(good ? "ok" : "FAILED", extraArgs.join(" ") || "(default root)", result);
    ok &&= good;
  }
  process.exit(ok ? 0 : 1);
}

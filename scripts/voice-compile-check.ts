/**
 * Proves voice input survives `bun build --compile`: builds a tiny executable from
 * test/engine/voice-in/fixtures/compiled-entry.ts, copies it alone into an empty temporary folder, runs it
 * there with two fixture streams on its standard input, and returns what it heard. The VAD's .wasm is
 * imported as a file, so it must be inside the executable; the codecs inline theirs in JavaScript.
 * Run: `npx bun scripts/voice-compile-check.ts`. Built like scripts/build.ts (--minify), with the default
 * root and with `--root src`.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const ENTRY = "test/engine/voice-in/fixtures/compiled-entry.ts";

export interface HeardReport {
  durationMs: number;
  heardSpeech: boolean;
  isUserStillSpeaking: boolean;
  voicedMs: number;
}

export interface VoiceCompileResult {
  vadWasmPath: string;
  embeddedWasm: boolean;
  ogg: HeardReport;
  webm: HeardReport;
  binaryBytes: number;
}

function framed(...parts: Uint8Array[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, part.length, true);
    chunks.push(length, part);
  }
  return Buffer.concat(chunks);
}

/**
 * Builds, runs from an empty folder, and returns the executable's report; throws on any failure.
 * @example const result = await voiceCompileCheck(); result.ogg.heardSpeech
 */
export async function voiceCompileCheck(extraArgs: string[] = []): Promise<VoiceCompileResult> {
  const buildDir = mkdtempSync(join(tmpdir(), "hoot-voice-build-"));
  const runDir = mkdtempSync(join(tmpdir(), "hoot-voice-run-"));
  try {
    const binary = join(buildDir, "voice-check");
    const build = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", ...extraArgs, ENTRY, "--outfile", binary], {
      cwd: ROOT,
      stderr: "pipe",
      stdout: "pipe",
    });
    if (build.exitCode !== 0) throw new Error(`bun build --compile failed:\n${build.stderr.toString()}`);
    const copied = join(runDir, "voice-check");
    copyFileSync(binary, copied);
    const stdin = framed(readFileSync(join(ROOT, "test/fixtures/voice/puppy.unity.ogg")), readFileSync(join(ROOT, "test/fixtures/voice/puppy.webm")));
    const run = Bun.spawn([copied], { cwd: runDir, env: { PATH: process.env.PATH ?? "" }, stdin, stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => run.kill(), 30_000);
    const [stdout, stderr, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    clearTimeout(timer);
    if (code !== 0) throw new Error(`compiled executable exited with ${code}:\n${stderr}`);
    const report = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Omit<VoiceCompileResult, "binaryBytes">;
    return { ...report, binaryBytes: statSync(binary).size };
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
    rmSync(runDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  let ok = true;
  for (const extraArgs of [[], ["--root", "src"]]) {
    const result = await voiceCompileCheck(extraArgs);
    const good = result.embeddedWasm && result.vadWasmPath.includes("$bunfs") && result.ogg.heardSpeech && result.webm.heardSpeech;
    console.log(good ? "ok" : "FAILED", extraArgs.join(" ") || "(default root)", result);
    ok &&= good;
  }
  process.exit(ok ? 0 : 1);
}

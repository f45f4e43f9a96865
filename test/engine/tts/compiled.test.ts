/**
 * The local engine inside a `bun build --compile` executable run from an empty folder: the wasm and the worker
 * must come from inside the binary (see scripts/tts-compile-check.ts).
 */
import { describe, expect, it } from "bun:test";
import { COMPILE_ENTRYPOINTS, compileCheck } from "../../../scripts/tts-compile-check.ts";

describe("local speech in a compiled executable", () => {
  it.each([
    ["the default root", [], "/$bunfs/root/src/engine/tts/flite/worker.js"],
    ["--root src, the layout of the real build", ["--root", "src"], "/$bunfs/root/engine/tts/flite/worker.js"],
  ])(
    "speaks from an empty folder when built with %s",
    async (_name, extraArgs, workerPath) => {
      const result = await compileCheck(extraArgs);
      expect(result.embeddedWasm).toBe(true);
      expect(result.embeddedMp3Wasm).toBe(true);
      expect(result.workerPath).toBe(workerPath);
      expect(result.sampleRate).toBe(44100);
      expect(result.firstBytes).toEqual([0xff, 0xfb]);
      expect(result.decodableAlone).toBe(true);
      expect(result.frames).toBeGreaterThan(20);
      // VBR at 44.1 kHz: frames of 32 kbps (104 bytes) to 160 kbps (522 bytes).
      expect(result.bytes).toBeGreaterThanOrEqual(result.frames * 104);
      expect(result.bytes).toBeLessThanOrEqual(result.frames * 523);
    },
    60_000,
  );

  it("says what is missing when the worker entrypoint was left out of the build", async () => {
    const error = await compileCheck([], COMPILE_ENTRYPOINTS.slice(0, 1)).catch((e: unknown) => e);
    expect(String(error)).toContain("speech worker is missing from this build");
  }, 60_000);
});

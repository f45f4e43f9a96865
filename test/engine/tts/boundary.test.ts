/**
 * src/engine/tts is part of the engine library: it takes its own options object and imports nothing from the
 * app around it (src/config.ts above all), only from within src/engine and from packages.
 */
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { Glob } from "bun";

const ENGINE = resolve(import.meta.dir, "../../../src/engine");
const TTS = resolve(ENGINE, "tts");

describe("src/engine/tts", () => {
  it("imports nothing from outside src/engine", () => {
    const transpiler = new Bun.Transpiler({ loader: "ts" });
    const leaving: string[] = [];
    for (const file of new Glob("**/*.ts").scanSync(TTS)) {
      if (file.endsWith(".d.ts")) continue;
      const path = resolve(TTS, file);
      for (const { path: target } of transpiler.scanImports(readFileSync(path, "utf8"))) {
        if (!target.startsWith(".")) continue;
        const where = relative(ENGINE, resolve(dirname(path), target));
        if (where.startsWith("..")) leaving.push(`${file} -> ${target}`);
      }
    }
    expect(leaving).toEqual([]);
  });
});

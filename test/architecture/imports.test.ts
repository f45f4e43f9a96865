/**
 * The shape of src/, read from its imports (test/architecture/import-graph.ts; type-only imports count, and so does a
 * dynamic `import()` of a string). docs/architecture.md explains each rule and why it holds.
 */
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importCircles, importGraph, ROOT, sourceFiles, type ImportEdge } from "./import-graph.ts";

const graph = importGraph("src");
const edges: ImportEdge[] = [...graph.values()].flat().filter((edge) => edge.to.startsWith("src/"));
const show = (edge: ImportEdge) => `${edge.from} -> ${edge.to}${edge.type ? " (type)" : ""}${edge.dynamic ? " (dynamic)" : ""}`;

/** The composition root: the only folder that names every feature (and the wiring files that lived at the top of src/). */
const WIRING = "src/boot/";
const isWiring = (file: string) => file.startsWith(WIRING) || /^src\/(app|deps|server|engine-wiring)\.ts$/.test(file);
/**
 * Who may import the composition root: itself, the admin commands and the entry points (main.ts; server.ts, the
 * server's old address, which re-exports boot/server.ts for the tests that load the server's module graph by it).
 */
const MAY_IMPORT_WIRING = (file: string) =>
  file.startsWith("src/boot/") || file.startsWith("src/cli/") || file === "src/main.ts" || file === "src/server.ts";
/**
 * Engine modules that outside code may name directly, because they are loaded lazily (the codecs and the voice
 * activity detector on the first `add_audio`): only type-only and dynamic imports of them, so nothing loads at start.
 */
const LAZY_ENGINE_ENTRIES = new Set(["src/engine/voice-in/index.ts"]);

/** Generated files and data are not hand-written source. */
const handWritten = (file: string) => !file.endsWith(".gen.ts") && !file.endsWith(".d.ts");
const MAX_LINES = 420;
const LONG_LINE = 160;
const MAX_LONG_LINES = 20;

describe("the import graph of src/", () => {
  it("has no import circle (type-only imports included)", () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it("src/db imports no feature: only itself and the shared top-level modules", () => {
    const shared = new Set(["src/config.ts", "src/errors.ts", "src/log.ts", "src/private-files.ts"]);
    const leaving = edges.filter((edge) => edge.from.startsWith("src/db/") && !edge.to.startsWith("src/db/") && !shared.has(edge.to));
    expect(leaving.map(show)).toEqual([]);
  });

  it(`only src/boot, src/cli and src/main.ts import the wiring in ${WIRING}`, () => {
    const importers = new Set(edges.filter((edge) => isWiring(edge.to) && !isWiring(edge.from) && !MAY_IMPORT_WIRING(edge.from)).map((edge) => edge.from));
    expect([...importers].sort()).toEqual([]);
  });

  it("the wiring lives in src/boot (no app, deps or engine wiring at the top of src/; server.ts only re-exports)", () => {
    const top = sourceFiles("src").filter((file) => /^src\/(app|deps|engine-wiring)\.ts$/.test(file));
    const server = readFileSync(join(ROOT, "src/server.ts"), "utf8").replace(/\/\*\*[\s\S]*?\*\/\n/, "").trim();
    expect(server).toBe('export { startServer, type RunningServer, type ServerOptions } from "./boot/server.ts";');
    expect(top).toEqual([]);
  });

  it("code outside src/engine imports the engine through src/engine/index.ts (lazy entries: types and import() only)", () => {
    const deep = edges.filter(
      (edge) =>
        !edge.from.startsWith("src/engine/") &&
        edge.to.startsWith("src/engine/") &&
        edge.to !== "src/engine/index.ts" &&
        !(LAZY_ENGINE_ENTRIES.has(edge.to) && (edge.type || edge.dynamic)),
    );
    expect(deep.map(show)).toEqual([]);
  });
});

describe("the size of src/'s hand-written files", () => {
  const files = sourceFiles("src").filter(handWritten);
  const lines = (file: string) => readFileSync(join(ROOT, file), "utf8").split("\n");

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = files.map((file) => ({ file, count: lines(file).length })).filter(({ count }) => count > MAX_LINES);
    expect(long.map(({ file, count }) => `${file}: ${count}`)).toEqual([]);
  });

  it(`has at most ${MAX_LONG_LINES} lines over ${LONG_LINE} characters`, () => {
    const long = files.flatMap((file) => lines(file).map((line, index) => ({ at: `${file}:${index + 1}`, length: line.length }))).filter(({ length }) => length > LONG_LINE);
    if (long.length > MAX_LONG_LINES) console.log(long.map(({ at, length }) => `${at} (${length})`).join("\n"));
    expect(long.length).toBeLessThanOrEqual(MAX_LONG_LINES);
  });
});

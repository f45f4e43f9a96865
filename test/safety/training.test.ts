/**
 * The training data and the model built from it (scripts/train-safety-model.ts): enough lines from enough writers,
 * mostly the everyday talk children really send, no blind line among them, and the weights in the repository are
 * exactly what the trainer produces from them (fixed seed), so anyone can rebuild and check the model.
 */
import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { loadSet, UNSAFE_LABELS } from "../../scripts/safety-data.ts";
import { builtinPolicy } from "../../src/engine/safety/checks.ts";
import { DEFAULT_LINES, FALLBACK_LINES, FIXED_LINES, OUTPUT_LINES } from "../../src/engine/safety/policy/lines.ts";

const train = loadSet("train");

describe("safety training data", () => {
  it("holds 30,000 child inputs and 10,000 model sentences from at least eight writers, mostly everyday lines", () => {
    const inputs = train.filter((l) => l.direction === "input");
    const outputs = train.filter((l) => l.direction === "output");
    expect(inputs.length).toBeGreaterThanOrEqual(30_000);
    expect(outputs.length).toBeGreaterThanOrEqual(10_000);
    expect(new Set(train.map((l) => l.writer)).size).toBeGreaterThanOrEqual(8);
    expect(inputs.filter((l) => l.kind === "everyday").length / inputs.length).toBeGreaterThan(0.5);
    for (const c of UNSAFE_LABELS) {
      expect(inputs.filter((l) => l.label === c).length).toBeGreaterThanOrEqual(500);
      expect(outputs.filter((l) => l.label === c).length).toBeGreaterThanOrEqual(300);
    }
  });

  it("lets every line the policies themselves say pass the output check", () => {
    const policy = builtinPolicy("default")!;
    const lines = [...Object.values(DEFAULT_LINES), ...Object.values(FIXED_LINES), ...Object.values(OUTPUT_LINES), FALLBACK_LINES].flat() as string[];
    expect(lines.filter((l) => policy.checkOutput(l).action !== "pass")).toEqual([]);
  });

  it("ships the weights the trainer produces from this data", async () => {
    const run = Bun.spawn([process.execPath, join(import.meta.dir, "../../scripts/train-safety-model.ts"), "--check"], { stdout: "pipe", stderr: "pipe" });
    const [out, code] = await Promise.all([new Response(run.stdout).text(), run.exited]);
    expect(out).toContain("weights.json is what the trainer produces");
    expect(code).toBe(0);
  }, 600_000);
});

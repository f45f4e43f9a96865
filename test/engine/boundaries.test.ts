/**
 * The seams stay where they are: the engine is a library (nothing from the app around it), and the client SDK
 * loads no server code (its wire types are type-only imports).
 */
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";

const ROOT = resolve(import.meta.dir, "../..");

/** Every relative import of the files under `folder` that leaves it: "file -> target" (type-only marked). */
function importsLeaving(folder: string, skip: (file: string) => boolean = () => false): string[] {
  const base = join(ROOT, folder);
  const out: string[] = [];
  for (const file of new Glob("**/*.ts").scanSync(base)) {
    if (skip(file)) continue;
    const text = readFileSync(join(base, file), "utf8");
    for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"/gm)) {
      const target = relative(ROOT, resolve(dirname(join(base, file)), match[2] as string));
      if (!target.startsWith(`${folder}/`)) out.push(`${folder}/${file} -> ${target}${match[1] ? " (type)" : ""}`);
    }
  }
  return out;
}

describe("module boundaries", () => {
  it("src/engine imports nothing from outside src/engine", () => {
    expect(importsLeaving("src/engine")).toEqual([]);
  });

  it("src/client imports server modules for their types only", () => {
    expect(importsLeaving("src/client").filter((line) => !line.endsWith("(type)"))).toEqual([]);
  });
});

import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");
const read = (name: string) => JSON.parse(readFileSync(join(root, name), "utf8"));

describe("package-lock.json", () => {
  // npm rewrites the lockfile's root entry whenever it differs from package.json, so a fresh clone's
  // `npm install` would leave a modified lockfile behind (run `npm install` after editing package.json).
  it("mirrors package.json, so `npm install` in a fresh clone leaves it unchanged", () => {
    const pkg = read("package.json");
    const lock = read("package-lock.json");
    const rootEntry = lock.packages[""];
    expect(lock.name).toBe(pkg.name);
    expect(lock.version).toBe(pkg.version);
    expect({
      name: rootEntry.name,
      version: rootEntry.version,
      bin: rootEntry.bin,
      dependencies: rootEntry.dependencies,
      devDependencies: rootEntry.devDependencies,
    }).toEqual({
      name: pkg.name,
      version: pkg.version,
      bin: pkg.bin,
      dependencies: pkg.dependencies,
      devDependencies: pkg.devDependencies,
    });
    for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]) {
      expect({ name, locked: lock.packages[`node_modules/${name}`] !== undefined }).toEqual({ name, locked: true });
    }
  });
});

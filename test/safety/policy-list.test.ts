/**
 * The cheap list of built-in policies (engine/safety/policies.ts, read without loading the rules) says what
 * the rules library's own specs say, and the library stays off the start-up path.
 */
import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { BUILTIN_POLICIES, DEFAULT_POLICY } from "../../src/engine/safety/checks.ts";
import { DEFAULT_SAFETY_POLICY, SAFETY_POLICIES } from "../../src/engine/safety/index.ts";

describe("the built-in policy list", () => {
  it("names and describes exactly the library's built-in policies, the default first", () => {
    expect(DEFAULT_SAFETY_POLICY).toBe(DEFAULT_POLICY);
    expect(SAFETY_POLICIES.map((p) => ({ ...p }))).toEqual(
      [BUILTIN_POLICIES[DEFAULT_POLICY]!, ...Object.values(BUILTIN_POLICIES).filter((p) => p.name !== DEFAULT_POLICY)].map((p) => ({
        name: p.name,
        description: p.description,
        builtin: true,
      })),
    );
  });

  it("is off the start-up path: importing the server loads none of the rules, obscenity or the policy schemas", async () => {
    // A fresh process imports the server's whole module graph and lists the modules it evaluated.
    const server = join(import.meta.dir, "../../src/server.ts");
    const script = `await import(${JSON.stringify(server)}); console.log(JSON.stringify(Object.keys(require.cache)));`;
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe", env: { ...process.env, HOOT_LOG_LEVEL: "silent" } });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const loaded = JSON.parse(out.trim().split("\n").at(-1)!) as string[];
    expect(loaded.some((m) => m.endsWith("src/engine/safety/lazy.ts"))).toBe(true);
    expect(loaded.filter((m) => /engine\/safety\/(checks\.ts|detect\/|policy\/|session\/)|node_modules\/(obscenity|unhomoglyph)\//.test(m))).toEqual([]);
  });
});

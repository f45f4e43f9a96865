import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../helpers/process.ts";

let dir: string;
let binary: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hoot-bin-"));
  binary = join(dir, "build/hoot");
  const build = Bun.spawn([process.execPath, join(import.meta.dir, "../../scripts/build.ts"), "--outfile", binary], { stdout: "pipe", stderr: "pipe" });
  const code = await build.exited;
  if (code !== 0) throw new Error(`build failed: ${await new Response(build.stderr).text()}`);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the compiled binary", () => {
  it("runs from an empty folder: answers /api/health, creates and migrates its database", async () => {
    const empty = join(dir, "run");
    Bun.spawnSync(["mkdir", "-p", empty]);
    expect(readdirSync(empty)).toEqual([]);
    const { proc, url } = await spawnServer(empty, {}, [binary]);
    try {
      expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ status: "ok" });
      expect((await fetch(`${url}/api/ready`)).status).toBe(200);
      expect(existsSync(join(empty, "data/hoot.db"))).toBe(true);
      // The dev bootstrap ran, so the migrations were applied from inside the binary.
      expect(existsSync(join(empty, "data/dev-credentials.json"))).toBe(true);
      expect((await fetch(`${url}/docs/swagger-ui.css`)).status).toBe(200);
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    }
  });
});

/**
 * The README's five-minute walk-through, pasted as written: the shell block and talk.ts run top to bottom,
 * twice in a row, against a fresh server (only the port differs: tests listen on a free one).
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, spawnServer } from "../helpers/process.ts";

const root = join(import.meta.dir, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const walkthroughStart = readme.indexOf("## Five minutes with hoot");
const walkthrough = readme.slice(walkthroughStart, readme.indexOf("\n## ", walkthroughStart));

/** The first fenced block of `lang` after `marker` in the walk-through. */
function block(lang: string, marker: string): string {
  const from = walkthrough.indexOf(marker);
  const start = walkthrough.indexOf("```" + lang + "\n", from);
  const end = walkthrough.indexOf("\n```", start + 4);
  if (from === -1 || start === -1 || end === -1) throw new Error(`no ${lang} block after "${marker}" in the walk-through`);
  return walkthrough.slice(start + lang.length + 4, end + 1);
}

let work: string;
let server: Awaited<ReturnType<typeof spawnServer>>;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "hoot-readme-"));
  server = await spawnServer(work);
});
afterAll(async () => {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  rmSync(work, { recursive: true, force: true });
});

describe("the README's five-minute walk-through", () => {
  it("the shell block runs top to bottom, twice, and ends with a player token each time", async () => {
    const host = new URL(server.url).host;
    const script = block("sh", "2. ").replaceAll("localhost:8080", host);
    expect(script).not.toContain("<");
    for (const run of [1, 2]) {
      const proc = Bun.spawn(["bash", "-euo", "pipefail", "-c", script], { cwd: work, env: cleanEnv({}), stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect({ run, code, err }).toEqual({ run, code: 0, err: "" });
      expect(out).toContain('"federated_id":"hoot_dev_fid_');
      expect(out).toMatch(/"access_token":"[^"]+","expires_in":3600,"token_type":"Bearer"/);
    }
  }, 30_000);

  it("talk.ts runs as written, twice", async () => {
    const source = block("ts", "3. Talk to the character")
      .replace("./src/client/index.ts", join(root, "src/client/index.ts"))
      .replaceAll("http://127.0.0.1:8080", server.url);
    writeFileSync(join(work, "talk.ts"), source);
    for (const run of [1, 2]) {
      const proc = Bun.spawn([process.execPath, "talk.ts"], { cwd: work, env: cleanEnv({}), stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect({ run, code, err }).toEqual({ run, code: 0, err: "" });
      expect(out.trim().split("\n").filter(Boolean).length).toBe(3);
    }
  }, 60_000);
});

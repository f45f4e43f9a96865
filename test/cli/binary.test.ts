import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeMp3 } from "../engine/tts/helpers.ts";
import { createPgDatabase, PG_AVAILABLE } from "../helpers/database.ts";
import { runHoot, spawnServer } from "../helpers/process.ts";
import { api, login } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

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
  it("runs from an empty folder: answers /api/health, creates and migrates its database, and speaks", async () => {
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

      // It speaks: the speech engine's wasm, voices and worker come from inside the binary.
      const creds = JSON.parse(readFileSync(join(empty, "data/dev-credentials.json"), "utf8"));
      // The developer console is embedded too: its page, and an API-key sign-in (its tables were migrated).
      const consolePage = await fetch(`${url}/console`);
      expect(consolePage.status).toBe(200);
      expect(consolePage.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(await consolePage.text()).toContain('<div id="app">');
      const signIn = await fetch(`${url}/console/api/session`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ api_key: creds.developer_api_key }),
      });
      expect(signIn.status).toBe(200);
      expect(signIn.headers.getSetCookie()[0]).toStartWith("hoot_console=");
      const token = (await login(url, { api_key: creds.developer_api_key })).access_token;
      const player = (await api(url, "POST", "/api/players", { token, body: { external_id: "binary-kid" } })).body;
      const playerToken = (await login(url, { api_key: creds.service_account_api_key, federated_id: player.federated_id })).access_token;
      const probe = await openSession(url, playerToken);
      const { events } = await probe.interact("Hello Ollie!", { audio_output: true }, 30_000);
      probe.close();
      const audio = events.filter((e) => e.event === "audio");
      expect(audio.length).toBeGreaterThan(0);
      const decoded = await decodeMp3(new Uint8Array(Buffer.concat(audio.map((e) => Buffer.from(e.audio, "base64")))));
      expect(decoded.errors).toBe(0);
      expect(decoded.samples.length / decoded.sampleRate).toBeGreaterThan(0.3);
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    }
  }, 60_000);

  it.skipIf(!PG_AVAILABLE)(
    "runs on PostgreSQL from an empty folder: its embedded PostgreSQL migrations create the tables",
    async () => {
      const empty = join(dir, "run-pg");
      Bun.spawnSync(["mkdir", "-p", empty]);
      const database = await createPgDatabase();
      const { proc, url } = await spawnServer(empty, { HOOT_DATABASE_URL: database.url, HOOT_SECRET_KEY: Buffer.alloc(32, 3).toString("base64") }, [binary]);
      try {
        expect((await fetch(`${url}/api/ready`)).status).toBe(200);
        const creds = JSON.parse(readFileSync(join(empty, "data/dev-credentials.json"), "utf8"));
        const token = (await login(url, { api_key: creds.developer_api_key })).access_token;
        expect((await api(url, "POST", "/api/players", { token, body: { external_id: "pg-kid" } })).status).toBe(201);
        // No SQLite file: the data is in PostgreSQL.
        expect(existsSync(join(empty, "data/hoot.db"))).toBe(false);
      } finally {
        proc.kill("SIGTERM");
        expect(await proc.exited).toBe(0);
        await database.drop();
      }
    },
    60_000,
  );

  it("explains itself: --help lists the commands and settings, not a README that is not beside it", async () => {
    const res = await runHoot(["--help"], dir, {}, [binary]);
    expect(res.code).toBe(0);
    for (const text of ["hoot admin <command>", "create-team", "backup", "restore", "HOOT_PORT", "HOOT_SECRET_KEY", "HOOT_CORS_ORIGINS"])
      expect(res.stdout).toContain(text);
    expect(res.stdout).not.toContain("README.md");
  });
});

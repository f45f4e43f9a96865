import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settingNames } from "../../src/cli/help.ts";
import { runHoot, spawnServer } from "../helpers/process.ts";
import { TEST_SECRET } from "../helpers/server.ts";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hoot-ops-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fresh = (name: string) => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

const login = (url: string, apiKey: string) =>
  fetch(`${url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ api_key: apiKey }) });

describe("backup and restore", () => {
  it("backs up the database and its key, refuses to start on the copy without the key, and restores both", async () => {
    // A dev deployment with a generated key and the dev credentials.
    const origin = fresh("origin");
    const first = await spawnServer(origin);
    const creds = JSON.parse(readFileSync(join(origin, "data/dev-credentials.json"), "utf8"));
    first.proc.kill("SIGTERM");
    expect(await first.proc.exited).toBe(0);

    const out = join(root, "backups/hoot-backup.db");
    const backup = await runHoot(["admin", "backup", "--out", out], origin);
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout)).toEqual({ backup: out, key_file: `${out}.key` });
    expect(backup.stderr).toContain("WARNING");
    expect(backup.stderr).toContain(`${out}.key`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(statSync(`${out}.key`).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${out}.key`, "utf8")).toBe(readFileSync(join(origin, "data/secret.key"), "utf8"));
    // Never over an existing backup.
    expect((await runHoot(["admin", "backup", "--out", out], origin)).code).not.toBe(0);

    // The database copied alone to a new machine: hoot refuses to start and says what to do.
    const copied = fresh("copied");
    mkdirSync(join(copied, "data"));
    copyFileSync(out, join(copied, "data/hoot.db"));
    const refused = await runHoot(["serve"], copied, { HOOT_PORT: "0" });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("no key was found");
    expect(refused.stderr).toContain("hoot admin backup");
    expect(existsSync(join(copied, "data/secret.key"))).toBe(false);

    // Another key: refused too.
    const wrong = await runHoot(["serve"], copied, { HOOT_PORT: "0", HOOT_SECRET_KEY: TEST_SECRET });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("different secret key");

    // Restore: the database and its key, then every credential works.
    const target = fresh("restored");
    const restore = await runHoot(["admin", "restore", "--from", out], target);
    expect(restore.code).toBe(0);
    expect(JSON.parse(restore.stdout)).toMatchObject({ restored: "data/hoot.db", key: "data/secret.key", previous_database: null });
    expect(statSync(join(target, "data")).mode & 0o777).toBe(0o700);
    expect(statSync(join(target, "data/hoot.db")).mode & 0o777).toBe(0o600);
    const restored = await spawnServer(target);
    try {
      expect((await login(restored.url, creds.developer_api_key)).status).toBe(200);
      expect((await login(restored.url, creds.service_account_api_key)).status).toBe(200);
    } finally {
      restored.proc.kill("SIGTERM");
      await restored.proc.exited;
    }
  }, 60_000);

  it("replaces an existing database only with --force, never while a server has it open, and keeps the old one", async () => {
    const env = { HOOT_SECRET_KEY: TEST_SECRET, HOOT_ENV: "staging" };
    const dir = fresh("force");
    expect((await runHoot(["admin", "create-team", "--name", "before"], dir, env)).code).toBe(0);
    const out = join(dir, "snapshot.db");
    expect((await runHoot(["admin", "backup", "--out", out, "--no-key"], dir, env)).code).toBe(0);
    expect(existsSync(`${out}.key`)).toBe(false);
    expect((await runHoot(["admin", "create-team", "--name", "after"], dir, env)).code).toBe(0);

    const noForce = await runHoot(["admin", "restore", "--from", out], dir, env);
    expect(noForce.code).not.toBe(0);
    expect(noForce.stderr).toContain("--force");

    const running = await spawnServer(dir, env);
    try {
      const busy = await runHoot(["admin", "restore", "--from", out, "--force"], dir, env);
      expect(busy.code).not.toBe(0);
      expect(busy.stderr).toContain("is the server running");
    } finally {
      running.proc.kill("SIGTERM");
      await running.proc.exited;
    }

    const done = await runHoot(["admin", "restore", "--from", out, "--force"], dir, env);
    expect(done.code).toBe(0);
    const result = JSON.parse(done.stdout);
    expect(result.key).toBe("HOOT_SECRET_KEY");
    expect(existsSync(join(dir, result.previous_database))).toBe(true);
    const teams = await runHoot(["admin", "create-team", "--name", "after"], dir, env);
    // "after" was made after the snapshot, so the restored database does not have it.
    expect(teams.code).toBe(0);
  }, 60_000);

  it("refuses a key that does not open the backup", async () => {
    const env = { HOOT_SECRET_KEY: TEST_SECRET, HOOT_ENV: "staging" };
    const dir = fresh("wrong-key");
    await runHoot(["admin", "create-team", "--name", "t"], dir, env);
    await runHoot(["admin", "create-developer", "--team", "t", "--email", "a@example.com", "--name", "A"], dir, env);
    const out = join(dir, "b.db");
    expect((await runHoot(["admin", "backup", "--out", out, "--no-key"], dir, env)).code).toBe(0);
    const other = fresh("wrong-key-target");
    const res = await runHoot(["admin", "restore", "--from", out], other, { HOOT_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"), HOOT_ENV: "staging" });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("does not open");
    expect(existsSync(join(other, "data/hoot.db"))).toBe(false);
  }, 30_000);
});

describe("the port", () => {
  it("refuses to start a second server on a port that is taken, with a clear message", async () => {
    const first = await spawnServer(fresh("port-a"), { HOOT_SECRET_KEY: TEST_SECRET, HOOT_ENV: "staging" });
    try {
      const port = new URL(first.url).port;
      const second = await runHoot(["serve"], fresh("port-b"), { HOOT_PORT: port, HOOT_HOST: "127.0.0.1", HOOT_SECRET_KEY: TEST_SECRET, HOOT_ENV: "staging" });
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(second.stderr).not.toContain("listening");
    } finally {
      first.proc.kill("SIGTERM");
      await first.proc.exited;
    }
  }, 30_000);
});

describe("stopping", () => {
  it("does not wait for a stalled upload past HOOT_SHUTDOWN_DRAIN_MS", async () => {
    const { proc, url, stdout } = await spawnServer(fresh("drain"), { HOOT_SHUTDOWN_DRAIN_MS: "500", HOOT_SECRET_KEY: TEST_SECRET, HOOT_ENV: "staging" });
    const port = Number(new URL(url).port);
    // A client that announces 1,000 bytes of body and sends 10, then goes quiet. It asks for "100 Continue", which
    // the server sends once it has taken the request in hand: from then on the request is in flight, with no race.
    const inFlight = Promise.withResolvers<void>();
    const socket = await Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        data(_socket, bytes) {
          if (new TextDecoder().decode(bytes).startsWith("HTTP/1.1 100 Continue")) inFlight.resolve();
        },
        close() {},
      },
    });
    socket.write("POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n");
    await inFlight.promise;
    socket.write('{"api_key"');
    proc.kill("SIGTERM");
    // The client never finishes or leaves: only the drain deadline can end the server (else the test times out).
    expect(await proc.exited).toBe(0);
    socket.end();
    const logs = (await stdout)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    // The drain ran to the configured deadline, and that is what ended the stalled request.
    expect(logs.find((l) => l.event === "draining")).toMatchObject({ deadlineMs: 500 });
    expect(logs.find((l) => l.event === "drain_deadline")).toMatchObject({ level: 40, pendingRequests: 1 });
    expect(logs.some((l) => l.event === "stopped")).toBe(true);
  }, 30_000);
});

describe("hoot --help", () => {
  it("prints the commands and every setting, without needing valid settings", async () => {
    const res = await runHoot(["--help"], root, { HOOT_PORT: "not-a-port" });
    expect(res.code).toBe(0);
    for (const command of ["serve", "create-team", "create-developer", "backup", "restore", "--no-key", "--force"]) expect(res.stdout).toContain(command);
    const names = settingNames();
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) expect(res.stdout).toContain(name);
    expect(res.stdout).not.toContain("see README");
  });

  it("every setting hoot reads is documented in docs/settings.md, or in docs/limits.md that it links to", () => {
    const settings = readFileSync(join(import.meta.dir, "../../docs/settings.md"), "utf8");
    const limits = readFileSync(join(import.meta.dir, "../../docs/limits.md"), "utf8");
    expect(settings).toContain("(limits.md)");
    const missing = settingNames().filter((name) => !settings.includes(`\`${name}\``) && !limits.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it("an unknown admin command is refused, including names every object has", async () => {
    for (const name of ["constructor", "__proto__", "toString"]) {
      const res = await runHoot(["admin", name], root, { HOOT_SECRET_KEY: TEST_SECRET });
      expect({ name, code: res.code }).toEqual({ name, code: 2 });
      expect(res.stderr).toContain("usage: hoot admin");
    }
  });
});

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPgDatabase, PG_AVAILABLE } from "../helpers/database.ts";
import { runHoot, spawnServer } from "../helpers/process.ts";
import { TEST_SECRET } from "../helpers/server.ts";

let dir: string;
const env = () => ({ HOOT_DATA_DIR: join(dir, "data"), HOOT_SECRET_KEY: TEST_SECRET, HOOT_ENV: "staging" });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hoot-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("hoot admin", () => {
  it("creates a team, a developer, a member and a service account, printing one JSON object each", async () => {
    const team = await runHoot(["admin", "create-team", "--name", "acme"], dir, env());
    expect(team.code).toBe(0);
    expect(JSON.parse(team.stdout)).toEqual({ team: { pk: 1, name: "acme" } });

    const dev = await runHoot(["admin", "create-developer", "--team", "acme", "--email", "Ada@Example.com", "--name", "Ada"], dir, env());
    expect(dev.code).toBe(0);
    const devOut = JSON.parse(dev.stdout);
    expect(devOut.api_key).toMatch(/^hoot_staging_dk_/);
    expect(devOut.developer.email).toBe("ada@example.com");

    await runHoot(["admin", "create-team", "--name", "beta"], dir, env());
    const member = await runHoot(["admin", "add-member", "--team", "beta", "--email", "ada@example.com"], dir, env());
    expect(member.code).toBe(0);
    expect(JSON.parse(member.stdout).team.name).toBe("beta");

    const again = await runHoot(["admin", "create-developer", "--team", "beta", "--email", "ada@example.com", "--name", "Ada"], dir, env());
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).api_key).toBeUndefined();

    const consent = await runHoot(["admin", "require-consent", "--team", "acme", "--value", "on"], dir, env());
    expect(consent.code).toBe(0);
    expect(JSON.parse(consent.stdout)).toEqual({ team: { pk: 1, name: "acme", require_consent: true } });
    const badValue = await runHoot(["admin", "require-consent", "--team", "acme", "--value", "yes"], dir, env());
    expect(badValue.code).not.toBe(0);
    expect(badValue.stderr).toContain("--value must be on or off");

    const sa = await runHoot(["admin", "create-service-account", "--team", "acme", "--name", "backend", "--player-create"], dir, env());
    expect(sa.code).toBe(0);
    expect(JSON.parse(sa.stdout).service_account.permissions).toEqual(["playerLogin", "playerCreate"]);

    const rotated = await runHoot(["admin", "rotate-developer-key", "--email", "ada@example.com"], dir, env());
    expect(rotated.code).toBe(0);
    expect(JSON.parse(rotated.stdout).api_key).not.toBe(devOut.api_key);
  }, 30_000);

  it("refuses a team name that exists, writing nothing, with a clear message and non-zero exit", async () => {
    const db = () => new Database(join(dir, "data/hoot.db"), { readonly: true });
    const count = () => {
      const d = db();
      const n = (d.query("SELECT count(*) AS n FROM teams").get() as { n: number }).n;
      d.close();
      return n;
    };
    const before = count();
    const res = await runHoot(["admin", "create-team", "--name", "acme"], dir, env());
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('A team named "acme" already exists');
    expect(res.stdout).toBe("");
    expect(count()).toBe(before);
  }, 30_000);

  it("explains missing flags, unknown flags and unknown commands", async () => {
    const missing = await runHoot(["admin", "create-team"], dir, env());
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("--name is required");
    const unknown = await runHoot(["admin", "create-team", "--nme", "x"], dir, env());
    expect(unknown.code).not.toBe(0);
    const command = await runHoot(["admin", "explode"], dir, env());
    expect(command.code).not.toBe(0);
    expect(command.stderr).toContain("usage");
  }, 30_000);

  it("makes a consistent backup that opens and holds the data", async () => {
    const out = join(dir, "backup/hoot-copy.db");
    const res = await runHoot(["admin", "backup", "--out", out], dir, env());
    expect(res.code).toBe(0);
    const copy = new Database(out, { readonly: true });
    expect((copy.query("SELECT name FROM teams ORDER BY id").all() as { name: string }[]).map((r) => r.name)).toEqual(["acme", "beta"]);
    expect((copy.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    copy.close();
  }, 30_000);
});

describe("settings", () => {
  it("reports every bad value at once and exits non-zero", async () => {
    const res = await runHoot(["serve"], dir, { HOOT_PORT: "99999", HOOT_LOG_LEVEL: "loud", HOOT_SECRET_KEY: "short" });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("HOOT_PORT");
    expect(res.stderr).toContain("HOOT_LOG_LEVEL");
    expect(res.stderr).toContain("HOOT_SECRET_KEY");
  }, 30_000);

  it("refuses to start in production without HOOT_SECRET_KEY", async () => {
    const res = await runHoot(["serve"], dir, { HOOT_ENV: "production", HOOT_DATA_DIR: join(dir, "prod") });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("HOOT_SECRET_KEY is required");
    expect(existsSync(join(dir, "prod/hoot.db"))).toBe(false);
  }, 30_000);
});

describe("hoot serve", () => {
  it("on first dev run creates credentials (file mode 0600), a secret key, and shuts down cleanly on SIGTERM", async () => {
    const work = mkdtempSync(join(tmpdir(), "hoot-serve-"));
    try {
      const { proc, url, stderr, stdout } = await spawnServer(work);
      const creds = JSON.parse(readFileSync(join(work, "data/dev-credentials.json"), "utf8"));
      expect(statSync(join(work, "data/dev-credentials.json")).mode & 0o777).toBe(0o600);
      expect(statSync(join(work, "data/secret.key")).mode & 0o777).toBe(0o600);
      expect(stderr).toContain(creds.developer_api_key);
      const login = await fetch(`${url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: creds.service_account_api_key }),
      });
      expect(login.status).toBe(200);
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      const logs = (await stdout)
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(logs.some((l) => l.event === "stopped")).toBe(true);
      expect(existsSync(join(work, "data/hoot.db-wal")) ? statSync(join(work, "data/hoot.db-wal")).size : 0).toBe(0);

      // Second start: nothing new is created.
      const second = await spawnServer(work);
      expect(second.stderr).not.toContain("First run");
      second.proc.kill("SIGTERM");
      expect(await second.proc.exited).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 30_000);

  it("creates nothing by itself outside the dev environment", async () => {
    const work = mkdtempSync(join(tmpdir(), "hoot-serve-"));
    try {
      const { proc } = await spawnServer(work, { HOOT_ENV: "staging", HOOT_SECRET_KEY: TEST_SECRET });
      proc.kill("SIGTERM");
      await proc.exited;
      expect(existsSync(join(work, "data/dev-credentials.json"))).toBe(false);
      const db = new Database(join(work, "data/hoot.db"), { readonly: true });
      expect((db.query("SELECT count(*) AS n FROM teams").get() as { n: number }).n).toBe(0);
      db.close();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 30_000);
});

describe.skipIf(!PG_AVAILABLE)("hoot admin on PostgreSQL", () => {
  it("runs the account commands against the shared database, and refuses backup and restore with the PostgreSQL tools to use", async () => {
    const database = await createPgDatabase();
    const work = mkdtempSync(join(tmpdir(), "hoot-cli-pg-"));
    const pgEnv = { HOOT_DATA_DIR: join(work, "data"), HOOT_SECRET_KEY: TEST_SECRET, HOOT_ENV: "staging", HOOT_DATABASE_URL: database.url };
    try {
      const team = await runHoot(["admin", "create-team", "--name", "acme"], work, pgEnv);
      expect(team.code).toBe(0);
      expect(JSON.parse(team.stdout)).toEqual({ team: { pk: 1, name: "acme" } });
      const again = await runHoot(["admin", "create-team", "--name", "acme"], work, pgEnv);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('A team named "acme" already exists');

      const backup = await runHoot(["admin", "backup", "--out", join(work, "b.db")], work, pgEnv);
      expect(backup.code).toBe(1);
      expect(backup.stderr).toContain("pg_dump");
      expect(existsSync(join(work, "b.db"))).toBe(false);
      const restore = await runHoot(["admin", "restore", "--from", join(work, "b.db")], work, pgEnv);
      expect(restore.code).toBe(1);
      expect(restore.stderr).toContain("pg_restore");
      expect(restore.stderr).not.toContain(database.url.split("@")[0]!);
      // Nothing was written beside the settings' data folder: no SQLite file.
      expect(existsSync(join(work, "data/hoot.db"))).toBe(false);
    } finally {
      rmSync(work, { recursive: true, force: true });
      await database.drop();
    }
  }, 30_000);
});

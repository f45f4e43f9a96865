import { describe, expect, it } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { visibleSettings } from "../../src/operator/settings.ts";

const KEY = Buffer.alloc(32, 1).toString("base64");

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("HOOT_DATABASE_URL", () => {
  it("selects PostgreSQL, with a pool size", () => {
    const config = loadConfig({ HOOT_DATABASE_URL: "postgres://hoot:pw@db.example.com:5432/hoot", HOOT_SECRET_KEY: KEY, HOOT_DATABASE_POOL_SIZE: "25" });
    expect(config.databaseUrl).toBe("postgres://hoot:pw@db.example.com:5432/hoot");
    expect(config.databasePoolSize).toBe(25);
    expect(loadConfig({}).databaseUrl).toBeNull();
    expect(loadConfig({}).databasePoolSize).toBe(10);
  });

  it("refuses a URL that is not PostgreSQL's, without repeating it (it may hold a password)", () => {
    for (const url of ["mysql://hoot:hunter2@db/hoot", "hunter2", "sqlite:///tmp/x.db"]) {
      const found = problems({ HOOT_DATABASE_URL: url, HOOT_SECRET_KEY: KEY });
      expect(found).toEqual([expect.stringContaining("HOOT_DATABASE_URL must be a PostgreSQL URL")]);
      expect(found.join(" ")).not.toContain("hunter2");
    }
  });

  it("needs HOOT_SECRET_KEY: every node must use the same key", () => {
    expect(problems({ HOOT_DATABASE_URL: "postgres://db.example.com/hoot" })).toEqual([
      expect.stringContaining("HOOT_SECRET_KEY is required with HOOT_DATABASE_URL"),
    ]);
  });

  it("is hidden in the operator's settings view (its password removed)", () => {
    const config = loadConfig({ HOOT_DATABASE_URL: "postgres://hoot:hunter2@db.example.com:5432/hoot", HOOT_SECRET_KEY: KEY });
    expect(JSON.stringify(visibleSettings(config))).not.toContain("hunter2");
  });
});

/**
 * The read cache (src/db/sqlite/read-cache.ts) over a real SQLite file: it answers from memory only while the
 * database is unchanged, whichever connection or process changed it.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitWitness, createReadCache } from "../../src/db/sqlite/read-cache.ts";

let dir: string;
let db: Database;
let other: Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hoot-read-cache-"));
  db = new Database(join(dir, "t.db"), { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE keys (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)");
  db.exec("INSERT INTO keys (id, version) VALUES (1, 1), (2, 1)");
  other = new Database(join(dir, "t.db"), { strict: true });
});
afterEach(() => {
  other.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const versionOf = (id: number) => (db.query("SELECT version FROM keys WHERE id = $id").get({ id }) as { version: number } | null)?.version ?? null;

describe("the read cache", () => {
  it("answers a repeated read without running the query while nothing changed", () => {
    const cache = createReadCache(db);
    let queries = 0;
    const read = () => cache.read("k:1", () => (++queries, versionOf(1)));
    expect([read(), read(), read()]).toEqual([1, 1, 1]);
    expect(queries).toBe(1);
  });

  it("sees a commit by another connection on the next read", () => {
    const cache = createReadCache(db);
    const read = () => cache.read("k:1", () => versionOf(1));
    expect(read()).toBe(1);
    other.exec("UPDATE keys SET version = 2 WHERE id = 1");
    expect(read()).toBe(2);
  });

  it("sees a commit by another process on the next read", async () => {
    const cache = createReadCache(db);
    const read = () => cache.read("k:1", () => versionOf(1));
    expect(read()).toBe(1);
    const script = `const { Database } = require("bun:sqlite"); new Database(${JSON.stringify(join(dir, "t.db"))}).exec("UPDATE keys SET version = 5 WHERE id = 1");`;
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "ignore", stderr: "inherit" });
    expect(await proc.exited).toBe(0);
    expect(read()).toBe(5);
  });

  it("sees this connection's own writes, to any row, on the next read", () => {
    const cache = createReadCache(db);
    const read = () => cache.read("k:1", () => versionOf(1));
    expect(read()).toBe(1);
    db.exec("UPDATE keys SET version = 3 WHERE id = 1");
    expect(read()).toBe(3);
    db.exec("DELETE FROM keys WHERE id = 1");
    expect(read()).toBeNull();
  });

  it("neither answers from nor stores into the cache inside a transaction, so a rolled-back row is never served", () => {
    const cache = createReadCache(db);
    const read = () => cache.read("k:2", () => versionOf(2));
    expect(read()).toBe(1);
    db.exec("BEGIN IMMEDIATE");
    db.exec("UPDATE keys SET version = 9 WHERE id = 2");
    expect(read()).toBe(9);
    db.exec("ROLLBACK");
    expect(read()).toBe(1);
  });

  it("holds at most its limit of entries, dropping the oldest", () => {
    const cache = createReadCache(db, 3);
    let queries = 0;
    for (let i = 0; i < 10; i++) cache.read(`k:${i}`, () => (++queries, i));
    expect(cache.size).toBe(3);
    expect(cache.read("k:9", () => (++queries, -1))).toBe(9);
    expect(cache.read("k:0", () => (++queries, 0))).toBe(0);
    expect(queries).toBe(11);
  });

  it("watches a WAL database's commits through the mapped WAL-index header: this connection's, another's, another process's", async () => {
    const witness = commitWitness(db);
    expect(witness.source).toBe("wal-index");
    expect(witness.moved()).toBe(true);
    expect(witness.moved()).toBe(false);
    db.query("SELECT * FROM keys").all();
    expect(witness.moved()).toBe(false);
    db.exec("UPDATE keys SET version = version + 1 WHERE id = 2");
    expect(witness.moved()).toBe(true);
    other.exec("UPDATE keys SET version = version + 1 WHERE id = 2");
    expect(witness.moved()).toBe(true);
    expect(witness.moved()).toBe(false);
    const script = `const { Database } = require("bun:sqlite"); new Database(${JSON.stringify(join(dir, "t.db"))}).exec("UPDATE keys SET version = 7 WHERE id = 2");`;
    for (let i = 0; i < 3; i++) {
      const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "ignore", stderr: "inherit" });
      expect(await proc.exited).toBe(0);
      expect(witness.moved()).toBe(true);
      expect(witness.moved()).toBe(false);
    }
  });

  it("falls back to PRAGMA data_version without a WAL-index file (an in-memory database)", () => {
    const memory = new Database(":memory:");
    try {
      const witness = commitWitness(memory);
      expect(witness.source).toBe("data_version");
      expect(witness.moved()).toBe(true);
      expect(witness.moved()).toBe(false);
      const cache = createReadCache(memory);
      memory.exec("CREATE TABLE k (v INTEGER); INSERT INTO k VALUES (1)");
      const read = () => cache.read("k", () => (memory.query("SELECT v FROM k").get() as { v: number }).v);
      expect(read()).toBe(1);
      memory.exec("UPDATE k SET v = 2");
      expect(read()).toBe(2);
    } finally {
      memory.close();
    }
  });
});

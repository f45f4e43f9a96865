/**
 * The read cache (src/db/sqlite/read-cache.ts) over a real SQLite file keeps its entries across this
 * connection's own writes declared irrelevant (audit rows, conversation messages, incidents: tables it never
 * reads), and drops them on anything it cannot explain: an own write elsewhere, another connection's or
 * process's commit, a rolled-back write, or a mix of these with irrelevant writes.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createReadCache, type ReadCache } from "../../src/db/sqlite/read-cache.ts";

let dir: string;
let db: Database;
let other: Database;
let cache: ReadCache;
let loads: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hoot-read-cache-own-"));
  db = new Database(join(dir, "t.db"), { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE keys (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)");
  db.exec("CREATE TABLE log (id INTEGER PRIMARY KEY, what TEXT NOT NULL)");
  db.exec("INSERT INTO keys (id, version) VALUES (1, 1), (2, 1)");
  other = new Database(join(dir, "t.db"), { strict: true });
  cache = createReadCache(db);
  loads = 0;
});
afterEach(() => {
  other.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const versionOf = (id: number) => (db.query("SELECT version FROM keys WHERE id = $id").get({ id }) as { version: number } | null)?.version ?? null;
const read = (id: number) => cache.read(`k:${id}`, () => (++loads, versionOf(id)));
const log = (what: string) => db.query("INSERT INTO log (what) VALUES ($what)").run({ what });
/** Reads both keys once to fill the cache; then the number of loads so far. */
const warm = () => {
  expect([read(1), read(2)]).toEqual([1, 1]);
  return loads;
};

describe("the read cache and this connection's own writes", () => {
  it("keeps its entries across own writes declared irrelevant, one by one or in a transaction", () => {
    const warmed = warm();
    for (let i = 0; i < 5; i++) cache.irrelevant(() => log(`row ${i}`));
    cache.irrelevant(() => db.transaction(() => [log("a"), log("b"), log("c")])());
    expect([read(1), read(2)]).toEqual([1, 1]);
    expect(loads).toBe(warmed);
    expect(cache.size).toBe(2);
  });

  it("counts a nested bracket once, and a bracketed write that failed as what it changed", () => {
    const warmed = warm();
    cache.irrelevant(() => cache.irrelevant(() => log("nested")));
    expect(() => cache.irrelevant(() => db.exec("INSERT INTO log (id, what) VALUES (1, 'duplicate')"))).toThrow();
    expect([read(1), read(2)]).toEqual([1, 1]);
    expect(loads).toBe(warmed);
  });

  it("drops its entries on an own write to a table it reads, even among irrelevant ones", () => {
    const warmed = warm();
    cache.irrelevant(() => log("before"));
    db.exec("UPDATE keys SET version = 2 WHERE id = 1");
    cache.irrelevant(() => log("after"));
    expect([read(1), read(2)]).toEqual([2, 1]);
    expect(loads).toBe(warmed + 2);
  });

  it("drops its entries on an own write nobody declared, even to a table it never reads", () => {
    const warmed = warm();
    log("undeclared");
    expect([read(1), read(2)]).toEqual([1, 1]);
    expect(loads).toBe(warmed + 2);
  });

  it("drops its entries when one transaction mixes a declared write and a write to a table it reads", () => {
    warm();
    db.transaction(() => {
      cache.irrelevant(() => log("audit row"));
      db.exec("DELETE FROM keys WHERE id = 2");
    })();
    expect([read(1), read(2)]).toEqual([1, null]);
  });

  it("drops its entries on another connection's commit, whatever it wrote and whatever this one wrote meanwhile", () => {
    warm();
    other.exec("UPDATE keys SET version = 4 WHERE id = 2");
    cache.irrelevant(() => log("mine"));
    expect([read(1), read(2)]).toEqual([1, 4]);
    const warmed = loads;
    other.exec("INSERT INTO log (what) VALUES ('theirs')");
    expect([read(1), read(2)]).toEqual([1, 4]);
    expect(loads).toBe(warmed + 2);
  });

  it("drops its entries on another process's commit, mixed with own irrelevant writes", async () => {
    warm();
    cache.irrelevant(() => log("mine"));
    const script = `const { Database } = require("bun:sqlite"); new Database(${JSON.stringify(join(dir, "t.db"))}).exec("UPDATE keys SET version = 6 WHERE id = 1");`;
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "ignore", stderr: "inherit" });
    expect(await proc.exited).toBe(0);
    cache.irrelevant(() => log("mine again"));
    expect([read(1), read(2)]).toEqual([6, 1]);
  });

  it("never serves a rolled-back write, declared or not, and keeps its entries only when all was explained", () => {
    let warmed = warm();
    // A declared write rolled back: accounted, nothing changed, the entries stay.
    db.exec("BEGIN IMMEDIATE");
    cache.irrelevant(() => log("undone"));
    db.exec("ROLLBACK");
    expect([read(1), read(2)]).toEqual([1, 1]);
    expect(loads).toBe(warmed);
    // A write to keys rolled back, then a declared write that commits: the rolled-back change is unexplained.
    db.exec("BEGIN IMMEDIATE");
    db.exec("UPDATE keys SET version = 9 WHERE id = 1");
    expect(read(1)).toBe(9);
    db.exec("ROLLBACK");
    cache.irrelevant(() => log("committed"));
    warmed = loads;
    expect([read(1), read(2)]).toEqual([1, 1]);
    expect(loads).toBe(warmed + 2);
  });
});

describe("without a WAL-index file (an in-memory database)", () => {
  it("keeps its entries across declared writes and drops them on an own write to a table it reads", () => {
    const memory = new Database(":memory:");
    try {
      memory.exec("CREATE TABLE k (v INTEGER); INSERT INTO k VALUES (1); CREATE TABLE l (w TEXT)");
      const own = createReadCache(memory);
      let n = 0;
      const get = () => own.read("k", () => (++n, (memory.query("SELECT v FROM k").get() as { v: number }).v));
      expect(get()).toBe(1);
      own.irrelevant(() => memory.exec("INSERT INTO l VALUES ('x')"));
      expect(get()).toBe(1);
      expect(n).toBe(1);
      memory.exec("UPDATE k SET v = 2");
      expect(get()).toBe(2);
      expect(n).toBe(2);
    } finally {
      memory.close();
    }
  });
});

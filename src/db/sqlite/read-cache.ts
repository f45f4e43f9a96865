/**
 * A process-local cache of the reads every request makes (a credential's version, a player's row) over one
 * SQLite connection, so they stop costing a query each.
 *
 * Rules it keeps (revocation stays immediate):
 * - every read first asks whether the database changed since the cache was filled, and any change drops every
 *   entry, so a cached answer is always the one the database would give now. Changed means: the WAL-index
 *   header moved (the first 48 bytes of the `-shm` file, which every commit by any connection of any process
 *   rewrites: its change counter, last frame, salts and checksums; sqlite.org/walformat.html), or this
 *   connection's `total_changes()` moved (its own writes, a second witness). The header is read through a
 *   shared memory map of the `-shm` file, so the check costs no statement and no lock. SQLite truncates or
 *   removes that file only when it holds the file's exclusive "DMS" lock, which it cannot get while this
 *   connection (which holds it shared) is open. Without a `-shm` (an in-memory database, a journal mode
 *   other than WAL) the check is `PRAGMA data_version` instead, one statement per read;
 * - inside a transaction nothing is read from or stored in the cache: an uncommitted row must not outlive a
 *   rollback, and the transaction must see its own writes;
 * - bounded: at most `limit` entries; when full, the oldest goes first (a Map keeps insertion order);
 * - values are shared between callers, so callers never change them.
 */
import type { Database } from "bun:sqlite";
import type { Db } from "../client.ts";

export interface ReadCache {
  /** `load()`'s answer for `key`, from the cache while the database has not changed since it was stored. */
  read<T>(key: string, load: () => T): T;
  /** How many entries are held (tests, metrics). */
  readonly size: number;
}

/** The most entries one connection's cache holds. */
export const READ_CACHE_LIMIT = 20_000;

const caches = new WeakMap<Db, ReadCache>();

/**
 * The read cache of the connection behind `db` (one per connection, made on first use).
 * @example readCache(db).read(`p:${id}`, () => statement.get({ id }) ?? null)
 */
export function readCache(db: Db): ReadCache {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = createReadCache(db.$client);
    caches.set(db, cache);
  }
  return cache;
}

/** A cache over `sqlite` holding at most `limit` entries. */
export function createReadCache(sqlite: Database, limit = READ_CACHE_LIMIT): ReadCache {
  const changes = sqlite.query<{ c: number }, []>("SELECT total_changes() AS c");
  const commits = commitWitness(sqlite);
  const entries = new Map<string, unknown>();
  let seenChanges = -1;

  // True when the entries still describe the database; drops them when it changed.
  const fresh = (): boolean => {
    const total = changes.get()!.c;
    // Both witnesses are read every time, so each one's snapshot stays current.
    const moved = commits.moved();
    if (!moved && total === seenChanges) return true;
    entries.clear();
    seenChanges = total;
    return false;
  };

  return {
    read<T>(key: string, load: () => T): T {
      if (sqlite.inTransaction) return load();
      if (fresh() && entries.has(key)) return entries.get(key) as T;
      const value = load();
      if (entries.size >= limit) entries.delete(entries.keys().next().value!);
      entries.set(key, value);
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}

const HEADER_WORDS = 12; // the WAL-index header: 48 bytes

/** Says whether any connection committed since it was last asked (true the first time). */
export interface CommitWitness {
  /** What it watches: the mapped WAL-index header, or `PRAGMA data_version` (another connection's commits only). */
  readonly source: "wal-index" | "data_version";
  moved(): boolean;
}

/** The witness of `sqlite`'s commits: the WAL-index header through a memory map where there is one. */
export function commitWitness(sqlite: Database): CommitWitness {
  const header = walIndexHeader(sqlite);
  if (header !== null) {
    const seen = new Uint32Array(HEADER_WORDS).fill(0xffffffff);
    const moved = () => {
      let moved = false;
      for (let i = 0; i < HEADER_WORDS; i++) {
        const word = header[i]!;
        if (word !== seen[i]) {
          seen[i] = word;
          moved = true;
        }
      }
      return moved;
    };
    return { source: "wal-index", moved };
  }
  const dataVersion = sqlite.query<{ data_version: number }, []>("PRAGMA data_version");
  let seenVersion = -1;
  const moved = () => {
    const version = dataVersion.get()!.data_version;
    if (version === seenVersion) return false;
    seenVersion = version;
    return true;
  };
  return { source: "data_version", moved };
}

// The first 48 bytes of the database's -shm file, mapped shared; null without one.
function walIndexHeader(sqlite: Database): Uint32Array | null {
  const file = sqlite.filename;
  if (!file || file === ":memory:") return null;
  const mode = sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode;
  if (mode !== "wal") return null;
  // A read opens this connection's share of the -shm (and its DMS lock) before it is mapped.
  sqlite.query("SELECT 1 FROM sqlite_master LIMIT 1").get();
  try {
    const map = Bun.mmap(`${file}-shm`);
    return map.byteLength >= HEADER_WORDS * 4 ? new Uint32Array(map.buffer, map.byteOffset, HEADER_WORDS) : null;
  } catch {
    return null;
  }
}

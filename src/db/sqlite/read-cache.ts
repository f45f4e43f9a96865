/**
 * A process-local cache of the reads every request makes (a credential's version, a player's row) over one
 * SQLite connection, so they stop costing a query each.
 *
 * Rules it keeps (revocation stays immediate):
 * - every read first asks whether the database may have changed since the last check. On a WAL database that
 *   question costs no statement: the WAL-index header (the first 48 bytes of the `-shm` file, which every commit
 *   by any connection of any process rewrites: its change counter, last frame, salts and checksums;
 *   sqlite.org/walformat.html) is read through a shared memory map and compared with the last one seen. SQLite
 *   truncates or removes that file only when it holds the file's exclusive "DMS" lock, which it cannot get
 *   while this connection (which holds it shared) is open. Without a `-shm` (an in-memory database, a journal
 *   mode other than WAL) every read makes the check below;
 * - when the header moved, the cache asks `PRAGMA data_version` (which moves on commits of OTHER connections
 *   and processes, never this one's) and this connection's `total_changes()`. The entries are kept only when
 *   data_version did not move AND every row this connection changed since the last check was changed inside an
 *   `irrelevant(() => write)` bracket, declared by the writers of tables the cache never reads (audit rows,
 *   conversation messages, safety incidents), whose `total_changes()` deltas the bracket accounts. Anything
 *   unexplained (another process's commit, an own write to players or credentials, an own write rolled back,
 *   a mix of kept and unkept writes) drops every entry. So the process's own audit and history writes no
 *   longer empty the cache, and a revocation still takes effect on the next read;
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
  /**
   * Runs `write` (synchronous statements on this connection) and accounts the rows it changed
   * (`total_changes()` before and after) as irrelevant to every cached answer. Only writers of tables no cached
   * read looks at may use it (audit rows, conversation messages, safety incidents): never around a write that
   * could touch players, credentials, users, teams or service accounts, nor one whose triggers or cascades could.
   */
  irrelevant<T>(write: () => T): T;
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
  const dataVersion = sqlite.query<{ data_version: number }, []>("PRAGMA data_version");
  const header = walIndex(sqlite);
  const entries = new Map<string, unknown>();
  let seenVersion = -1;
  let seenChanges = -1;
  // Rows changed by this connection inside `irrelevant` brackets since the last check.
  let explained = 0;
  let bracketDepth = 0;

  // True when the entries still describe the database; drops them when it changed in a way nobody explained.
  const fresh = (): boolean => {
    // The cheap gate: no commit by anyone since the last check (a WAL database's mapped header did not move).
    if (header !== null && !header.moved()) return true;
    const version = dataVersion.get()!.data_version;
    const total = changes.get()!.c;
    const kept = version === seenVersion && total - seenChanges === explained;
    seenVersion = version;
    seenChanges = total;
    explained = 0;
    if (!kept) entries.clear();
    return kept;
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
    irrelevant<T>(write: () => T): T {
      if (bracketDepth > 0) return write();
      const before = changes.get()!.c;
      bracketDepth++;
      try {
        return write();
      } finally {
        bracketDepth--;
        explained += changes.get()!.c - before;
      }
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * Runs `write` on `db`'s connection, declaring that it changes only tables no cached read ever looks at, so its
 * commit does not drop the cache (see ReadCache.irrelevant).
 * @example irrelevant(db, () => insertStatement(db).run(row))
 */
export function irrelevant<T>(db: Db, write: () => T): T {
  return readCache(db).irrelevant(write);
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
  const header = walIndex(sqlite);
  if (header !== null) return header;
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

// The witness over the mapped WAL-index header; null without one.
function walIndex(sqlite: Database): CommitWitness | null {
  const header = walIndexHeader(sqlite);
  if (header === null) return null;
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

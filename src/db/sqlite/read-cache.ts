/**
 * A process-local cache of the reads every request makes (a credential's version, a player's row) over one
 * SQLite connection, so they stop costing a query each.
 *
 * Rules it keeps (revocation stays immediate):
 * - every read first asks whether the database changed since the cache was filled: `PRAGMA data_version`
 *   moves when another connection commits (another process: `hoot admin`), `total_changes()` when this
 *   connection writes anything. Either moving drops every entry, so a cached answer is always the one the
 *   database would give now. The check is one PRAGMA statement, cheaper than the reads it replaces;
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
  const dataVersion = sqlite.query<{ data_version: number }, []>("PRAGMA data_version");
  const changes = sqlite.query<{ c: number }, []>("SELECT total_changes() AS c");
  const entries = new Map<string, unknown>();
  let seenVersion = -1;
  let seenChanges = -1;

  // True when the entries still describe the database; drops them when it changed.
  const fresh = (): boolean => {
    const version = dataVersion.get()!.data_version;
    const total = changes.get()!.c;
    if (version === seenVersion && total === seenChanges) return true;
    entries.clear();
    seenVersion = version;
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

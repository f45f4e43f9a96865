/**
 * Every query about operator keys, as one async interface with a SQLite (repo-sqlite.ts) and a PostgreSQL
 * (repo-pg.ts) implementation; test/db/contract/operator-keys.test.ts holds both to it.
 */

import type { OperatorLookup } from "../auth/index.ts";
import type { OperatorKey } from "../db/schema.ts";

export interface OperatorKeyRepo {
  /** Id and version of the key with this lookup hash, or null (operator login). */
  byKeyHash(hash: string): Promise<{ id: number; version: number } | null>;
  /** The key's version, or null when it was deleted (every operator token check). */
  version(id: number): Promise<number | null>;
  /** The operator key named `name`, or null. */
  findByName(name: string): Promise<OperatorKey | null>;
  /** Inserts an operator key by its lookup hash; the unique name index refuses a duplicate. */
  insert(values: { name: string; keyHash: string }): Promise<OperatorKey>;
  /** Replaces the key and bumps its version, which ends every token the old key minted; null when absent. */
  replace(name: string, keyHash: string): Promise<OperatorKey | null>;
  /** Deletes the operator key named `name`; false when there was none. */
  delete(name: string): Promise<boolean>;
}

/** What auth may ask about operator keys (see auth/lookups.ts). */
export function operatorLookup(keys: OperatorKeyRepo): OperatorLookup {
  return { byKeyHash: (hash) => keys.byKeyHash(hash), version: (id) => keys.version(id) };
}

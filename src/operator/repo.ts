/** Every query about operator keys. */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { operatorKeys, type OperatorKey } from "../db/schema.ts";
import type { OperatorLookup } from "../auth/index.ts";

/** What auth may ask about operator keys (see auth/lookups.ts). */
export function operatorLookup(db: Db): OperatorLookup {
  return {
    byKeyHash: (hash) => byHash(db).get({ hash }) ?? null,
    version: (id) => versionOf(db).get({ id })?.version ?? null,
  };
}

/** The operator key named `name`, or null. */
export function findOperatorKeyByName(db: Db, name: string): OperatorKey | null {
  return db.select().from(operatorKeys).where(eq(operatorKeys.name, name)).get() ?? null;
}

/** Inserts an operator key by its lookup hash. */
export function insertOperatorKey(db: Db, values: { name: string; keyHash: string }): OperatorKey {
  return db.insert(operatorKeys).values(values).returning().get();
}

/** Replaces the key and bumps its version, which ends every token the old key minted; null when absent. */
export function replaceOperatorKey(db: Db, name: string, keyHash: string): OperatorKey | null {
  return (
    db
      .update(operatorKeys)
      .set({ keyHash, version: sql`${operatorKeys.version} + 1` })
      .where(eq(operatorKeys.name, name))
      .returning()
      .get() ?? null
  );
}

/** Deletes the operator key named `name`; false when there was none. */
export function deleteOperatorKey(db: Db, name: string): boolean {
  return deleteByName(db).run({ name }).changes > 0;
}

const byHash = prepared((db) => db.$client.query<{ id: number; version: number }, { hash: string }>("SELECT id, version FROM operator_keys WHERE key_hash = $hash"));

// Plain bun:sqlite on the per-token check, as for the other credentials.
const versionOf = prepared((db) => db.$client.query<{ version: number }, { id: number }>("SELECT version FROM operator_keys WHERE id = $id"));

const deleteByName = prepared((db) => db.$client.query<never, { name: string }>("DELETE FROM operator_keys WHERE name = $name"));

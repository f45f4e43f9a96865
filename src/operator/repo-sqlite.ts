/** The operator keys repository (repo.ts) on SQLite. */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { operatorKeys } from "../db/schema.ts";
import { readCache } from "../db/sqlite/read-cache.ts";
import type { Synchronous } from "../db/store.ts";
import type { OperatorKeyRepo } from "./repo.ts";

/** Operator keys on SQLite. */
export function sqliteOperatorKeyRepo(db: Db): Synchronous<OperatorKeyRepo> {
  return {
    byKeyHash: (hash) => byHash(db).get({ hash }) ?? null,
    version: (id) => readCache(db).read(`o:${id}`, () => versionOf(db).get({ id })?.version ?? null),
    findByName: (name) => db.select().from(operatorKeys).where(eq(operatorKeys.name, name)).get() ?? null,
    insert: (values) => db.insert(operatorKeys).values(values).returning().get(),
    replace: (name, keyHash) =>
      db
        .update(operatorKeys)
        .set({ keyHash, version: sql`${operatorKeys.version} + 1` })
        .where(eq(operatorKeys.name, name))
        .returning()
        .get() ?? null,
    delete: (name) => deleteByName(db).run({ name }).changes > 0,
  };
}

const byHash = prepared((db) =>
  db.$client.query<{ id: number; version: number }, { hash: string }>("SELECT id, version FROM operator_keys WHERE key_hash = $hash"),
);

// Plain bun:sqlite on the per-token check, as for the other credentials.
const versionOf = prepared((db) => db.$client.query<{ version: number }, { id: number }>("SELECT version FROM operator_keys WHERE id = $id"));

const deleteByName = prepared((db) => db.$client.query<never, { name: string }>("DELETE FROM operator_keys WHERE name = $name"));

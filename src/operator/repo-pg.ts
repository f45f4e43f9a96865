/** The operator keys repository (repo.ts) on PostgreSQL. */
import { eq, sql } from "drizzle-orm";
import { execute, type PgDb, query } from "../db/pg/client.ts";
import { operatorKeys } from "../db/pg/schema.ts";
import type { OperatorKeyRepo } from "./repo.ts";

/** Operator keys on PostgreSQL. */
export function pgOperatorKeyRepo(db: PgDb): OperatorKeyRepo {
  const one = async <T>(rows: Promise<T[]>): Promise<T | null> => (await rows)[0] ?? null;
  return {
    byKeyHash: (hash) => one(query<{ id: number; version: number }>(db, "SELECT id, version FROM operator_keys WHERE key_hash = $1", [hash])),
    version: async (id) => (await query<{ version: number }>(db, "SELECT version FROM operator_keys WHERE id = $1", [id]))[0]?.version ?? null,
    findByName: (name) => one(db.select().from(operatorKeys).where(eq(operatorKeys.name, name))),
    insert: async (values) => (await db.insert(operatorKeys).values(values).returning())[0]!,
    replace: (name, keyHash) =>
      one(
        db
          .update(operatorKeys)
          .set({ keyHash, version: sql`${operatorKeys.version} + 1` })
          .where(eq(operatorKeys.name, name))
          .returning(),
      ),
    delete: async (name) => (await execute(db, "DELETE FROM operator_keys WHERE name = $1", [name])) > 0,
  };
}

/** The service accounts repository (repo.ts) on SQLite: synchronous inside, prepared statements on the hot paths. */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { serviceAccounts } from "../db/schema.ts";
import { readCache } from "../db/sqlite/read-cache.ts";
import type { Synchronous } from "../db/store.ts";
import type { ServiceAccountRepo } from "./repo.ts";

/** Service accounts on SQLite. */
export function sqliteServiceAccountRepo(db: Db): Synchronous<ServiceAccountRepo> {
  return {
    insert: (values) => db.insert(serviceAccounts).values(values).returning().get(),
    list: (teamId) => db.select().from(serviceAccounts).where(eq(serviceAccounts.teamId, teamId)).orderBy(serviceAccounts.id).all(),
    findByName: (teamId, name) =>
      db
        .select()
        .from(serviceAccounts)
        .where(and(eq(serviceAccounts.teamId, teamId), eq(serviceAccounts.name, name)))
        .get() ?? null,
    findByKeyHash: (hash) => saByKeyHash(db).get({ hash }) ?? null,
    // Every service request: answered from the read cache while the database has not changed.
    state: (id) =>
      readCache(db).read(`s:${id}`, () => {
        const row = saState(db).get({ id });
        return row ? { version: row.version, playerCreate: row.playerCreate === 1, teamId: row.teamId } : null;
      }),
    delete: (teamId, id) =>
      db
        .delete(serviceAccounts)
        .where(and(eq(serviceAccounts.id, id), eq(serviceAccounts.teamId, teamId)))
        .returning({ id: serviceAccounts.id })
        .get() !== undefined,
    deleteOfTeam: (teamId) =>
      db
        .delete(serviceAccounts)
        .where(eq(serviceAccounts.teamId, teamId))
        .returning({ id: serviceAccounts.id })
        .all()
        .map((row) => row.id),
  };
}

const saByKeyHash = prepared((db) =>
  db
    .select()
    .from(serviceAccounts)
    .where(eq(serviceAccounts.keyHash, sql.placeholder("hash")))
    .prepare(),
);

// Plain bun:sqlite on the per-token check: drizzle's row mapping costs as much again as the query.
const saState = prepared((db) =>
  db.$client.query<{ version: number; playerCreate: number; teamId: number }, { id: number }>(
    "SELECT version, player_create AS playerCreate, team_id AS teamId FROM service_accounts WHERE id = $id",
  ),
);

/** The users repository (repo.ts) on SQLite: synchronous inside, prepared statements on the hot paths. */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { users } from "../db/schema.ts";
import { readCache } from "../db/sqlite/read-cache.ts";
import type { Synchronous } from "../db/store.ts";
import type { UserRepo } from "./repo.ts";

/** Developer users on SQLite. */
export function sqliteUserRepo(db: Db): Synchronous<UserRepo> {
  return {
    findByEmail: (email) => db.select().from(users).where(eq(users.email, email)).get() ?? null,
    findByKeyHash: (hash) => userByKeyHash(db).get({ hash }) ?? null,
    get: (id) => db.select().from(users).where(eq(users.id, id)).get() ?? null,
    lock: (id) => db.select().from(users).where(eq(users.id, id)).get() ?? null,
    list: () => db.select().from(users).orderBy(users.id).all(),
    rename: (id, name) => db.update(users).set({ name }).where(eq(users.id, id)).returning().get() ?? null,
    delete: (id) => deleteStatement(db).run({ id }).changes > 0,
    insert: (values) => db.insert(users).values(values).returning().get(),
    replaceKey: (id, apiKeyEnc, apiKeyHash) =>
      db
        .update(users)
        .set({ apiKeyEnc, apiKeyHash, keyVersion: sql`${users.keyVersion} + 1` })
        .where(eq(users.id, id))
        .returning()
        .get() ?? null,
    keyVersion: (id) => userVersion(db).get({ id })?.version ?? null,
    // Every developer request: answered from the read cache while the database has not changed.
    tokenState: (id, teamId) =>
      readCache(db).read(`u:${id}:${teamId}`, () => {
        const row = tokenStateStatement(db).get({ id, teamId });
        return row ? { keyVersion: row.keyVersion, member: row.member === 1 } : null;
      }),
  };
}

const userByKeyHash = prepared((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.apiKeyHash, sql.placeholder("hash")))
    .prepare(),
);

const deleteStatement = prepared((db) => db.$client.query<never, { id: number }>("DELETE FROM users WHERE id = $id"));

// Plain bun:sqlite on the hottest paths (every developer request): drizzle's row mapping costs as much again
// as the query itself.
const userVersion = prepared((db) => db.$client.query<{ version: number }, { id: number }>("SELECT key_version AS version FROM users WHERE id = $id"));

const tokenStateStatement = prepared((db) =>
  db.$client.query<{ keyVersion: number; member: number }, { id: number; teamId: number }>(
    `SELECT key_version AS keyVersion,
            EXISTS (SELECT 1 FROM team_members WHERE user_id = $id AND team_id = $teamId) AS member
       FROM users WHERE id = $id`,
  ),
);

/** The users repository (repo.ts) on PostgreSQL; the hot paths are one plain statement each. */
import { eq, sql } from "drizzle-orm";
import { execute, type PgDb, query } from "../db/pg/client.ts";
import { users } from "../db/pg/schema.ts";
import type { UserRepo } from "./repo.ts";

/** Developer users on PostgreSQL. */
export function pgUserRepo(db: PgDb): UserRepo {
  const one = async <T>(rows: Promise<T[]>): Promise<T | null> => (await rows)[0] ?? null;
  return {
    findByEmail: (email) => one(db.select().from(users).where(eq(users.email, email))),
    findByKeyHash: (hash) => one(db.select().from(users).where(eq(users.apiKeyHash, hash))),
    get: (id) => one(db.select().from(users).where(eq(users.id, id))),
    // NO KEY UPDATE: serialises writers of this developer's teams without blocking inserts that reference the row.
    lock: (id) => one(db.select().from(users).where(eq(users.id, id)).for("no key update")),
    list: () => db.select().from(users).orderBy(users.id),
    rename: (id, name) => one(db.update(users).set({ name }).where(eq(users.id, id)).returning()),
    delete: async (id) => (await execute(db, "DELETE FROM users WHERE id = $1", [id])) > 0,
    insert: async (values) => (await db.insert(users).values(values).returning())[0]!,
    replaceKey: (id, apiKeyEnc, apiKeyHash) =>
      one(
        db
          .update(users)
          .set({ apiKeyEnc, apiKeyHash, keyVersion: sql`${users.keyVersion} + 1` })
          .where(eq(users.id, id))
          .returning(),
      ),
    keyVersion: async (id) => (await query<{ key_version: number }>(db, "SELECT key_version FROM users WHERE id = $1", [id]))[0]?.key_version ?? null,
    async tokenState(id, teamId) {
      const [row] = await query<{ key_version: number; member: boolean }>(
        db,
        "SELECT key_version, EXISTS (SELECT 1 FROM team_members WHERE user_id = $1 AND team_id = $2) AS member FROM users WHERE id = $1",
        [id, teamId],
      );
      return row ? { keyVersion: row.key_version, member: row.member } : null;
    },
  };
}

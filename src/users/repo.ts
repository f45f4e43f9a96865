/** Every query about developer users. */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { users, type User } from "../db/schema.ts";
import type { DeveloperLookup } from "../auth/index.ts";

/** What auth may ask about developers (see auth/lookups.ts). */
export function developerLookup(db: Db): DeveloperLookup {
  return {
    byKeyHash(hash) {
      const user = findUserByKeyHash(db, hash);
      return user ? { id: user.id, version: user.keyVersion, sealed: user.apiKeyEnc } : null;
    },
    keyVersion: (id) => userKeyVersion(db, id),
  };
}

/** The user with `email` (already lower-cased), or null. */
export function findUserByEmail(db: Db, email: string): User | null {
  return db.select().from(users).where(eq(users.email, email)).get() ?? null;
}

/** The user whose developer key has lookup hash `hash`, or null. */
export function findUserByKeyHash(db: Db, hash: string): User | null {
  return userByKeyHash(db).get({ hash }) ?? null;
}

const userByKeyHash = prepared((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.apiKeyHash, sql.placeholder("hash")))
    .prepare(),
);

/** The user with `id`, or null. */
export function getUser(db: Db, id: number): User | null {
  return db.select().from(users).where(eq(users.id, id)).get() ?? null;
}

/** Every developer, oldest first. */
export function listUsers(db: Db): User[] {
  return db.select().from(users).orderBy(users.id).all();
}

/** Renames a developer; null when absent. */
export function updateUserName(db: Db, id: number, name: string): User | null {
  return db.update(users).set({ name }).where(eq(users.id, id)).returning().get() ?? null;
}

/** Deletes a developer (their memberships go with them by ON DELETE CASCADE); false when absent. */
export function deleteUser(db: Db, id: number): boolean {
  return deleteStatement(db).run({ id }).changes > 0;
}

const deleteStatement = prepared((db) => db.$client.query<never, { id: number }>("DELETE FROM users WHERE id = $id"));

/** Inserts a user with an encrypted key. */
export function insertUser(db: Db, values: { name: string; email: string; apiKeyEnc: Buffer; apiKeyHash: string }): User {
  return db.insert(users).values(values).returning().get();
}

/** Replaces the user's key and bumps its version, which ends every token the old key minted. */
export function replaceUserKey(db: Db, id: number, apiKeyEnc: Buffer, apiKeyHash: string): User | null {
  return (
    db
      .update(users)
      .set({ apiKeyEnc, apiKeyHash, keyVersion: sql`${users.keyVersion} + 1` })
      .where(eq(users.id, id))
      .returning()
      .get() ?? null
  );
}

/** The current key version of a user, or null (hot path: every developer token check). */
export function userKeyVersion(db: Db, id: number): number | null {
  return userVersion(db).get({ id })?.version ?? null;
}

// Plain bun:sqlite on this hottest path (every developer request): drizzle's row mapping costs as much again
// as the query itself.
const userVersion = prepared((db) => db.$client.query<{ version: number }, { id: number }>("SELECT key_version AS version FROM users WHERE id = $id"));

/**
 * Every query about developer users, as one async interface with a SQLite (repo-sqlite.ts) and a PostgreSQL
 * (repo-pg.ts) implementation; test/db/contract/users.test.ts holds both to it.
 */

import type { DeveloperLookup } from "../auth/index.ts";
import type { User } from "../db/schema.ts";

export type NewUser = { name: string; email: string; apiKeyEnc: Buffer; apiKeyHash: string };

export interface UserRepo {
  /** The user with `email` (already lower-cased), or null. */
  findByEmail(email: string): Promise<User | null>;
  /** The user whose developer key has lookup hash `hash`, or null (login hot path). */
  findByKeyHash(hash: string): Promise<User | null>;
  /** The user with `id`, or null. */
  get(id: number): Promise<User | null>;
  /**
   * The user with `id`, locked until the transaction ends (PostgreSQL: FOR NO KEY UPDATE, so two transactions
   * changing one developer's teams take turns; SQLite's transactions hold the whole database already), or null.
   */
  lock(id: number): Promise<User | null>;
  /** Every developer, oldest first. */
  list(): Promise<User[]>;
  /** Renames a developer; null when absent. */
  rename(id: number, name: string): Promise<User | null>;
  /** Deletes a developer (memberships and console sessions go with them by ON DELETE CASCADE); false when absent. */
  delete(id: number): Promise<boolean>;
  /** Inserts a user with an encrypted key; the unique e-mail and key-hash indexes refuse duplicates. */
  insert(values: NewUser): Promise<User>;
  /** Replaces the user's key and bumps its version, which ends every token the old key minted; null when absent. */
  replaceKey(id: number, apiKeyEnc: Buffer, apiKeyHash: string): Promise<User | null>;
  /** The current key version, or null when the user is gone. */
  keyVersion(id: number): Promise<number | null>;
  /**
   * The key version and whether the user is in `teamId`, in one query (one round trip on PostgreSQL); null
   * when the user is gone. Hot path: every developer token check.
   */
  tokenState(id: number, teamId: number): Promise<{ keyVersion: number; member: boolean } | null>;
}

/** What auth may ask about developers (see auth/lookups.ts). */
export function developerLookup(users: UserRepo): DeveloperLookup {
  return {
    async byKeyHash(hash) {
      const user = await users.findByKeyHash(hash);
      return user ? { id: user.id, version: user.keyVersion, sealed: user.apiKeyEnc } : null;
    },
    tokenState: (id, teamId) => users.tokenState(id, teamId),
  };
}

/**
 * Every query about service accounts, as one async interface with a SQLite (repo-sqlite.ts) and a PostgreSQL
 * (repo-pg.ts) implementation; test/db/contract/service-accounts.test.ts holds both to it.
 */

import type { ServiceAccountLookup, ServiceAccountState } from "../auth/index.ts";
import type { ServiceAccount } from "../db/schema.ts";

export type NewServiceAccount = { teamId: number; name: string; playerCreate: boolean; keyEnc: Buffer; keyHash: string };

export interface ServiceAccountRepo {
  /** Inserts a service account; the unique (team, name) and key-hash indexes refuse duplicates. */
  insert(values: NewServiceAccount): Promise<ServiceAccount>;
  /** Service accounts of a team, oldest first. */
  list(teamId: number): Promise<ServiceAccount[]>;
  /** The team's service account named `name`, or null. */
  findByName(teamId: number, name: string): Promise<ServiceAccount | null>;
  /** The service account whose key has this lookup hash, or null (login hot path). */
  findByKeyHash(hash: string): Promise<ServiceAccount | null>;
  /** Version, permission and team of a service account, or null (every service token check). */
  state(id: number): Promise<ServiceAccountState | null>;
  /** Deletes the team's service account `id`; false when there was none. */
  delete(teamId: number, id: number): Promise<boolean>;
  /** Deletes every service account of a team; returns their ids. */
  deleteOfTeam(teamId: number): Promise<number[]>;
}

/** What auth may ask about service accounts (see auth/lookups.ts). */
export function serviceAccountLookup(accounts: ServiceAccountRepo): ServiceAccountLookup {
  return {
    async byKeyHash(hash) {
      const sa = await accounts.findByKeyHash(hash);
      return sa ? { id: sa.id, version: sa.version, sealed: sa.keyEnc, teamId: sa.teamId, playerCreate: sa.playerCreate } : null;
    },
    state: (id) => accounts.state(id),
  };
}

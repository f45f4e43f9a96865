/** Every query about service accounts. */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { serviceAccounts, type ServiceAccount } from "../db/schema.ts";
import type { ServiceAccountLookup } from "../auth/index.ts";

/** What auth may ask about service accounts (see auth/lookups.ts). */
export function serviceAccountLookup(db: Db): ServiceAccountLookup {
  return {
    byKeyHash(hash) {
      const sa = findServiceAccountByKeyHash(db, hash);
      return sa ? { id: sa.id, version: sa.version, sealed: sa.keyEnc, teamId: sa.teamId, playerCreate: sa.playerCreate } : null;
    },
    state: (id) => serviceAccountState(db, id),
  };
}

/** Inserts a service account. */
export function insertServiceAccount(
  db: Db,
  values: { teamId: number; name: string; playerCreate: boolean; keyEnc: Buffer; keyHash: string },
): ServiceAccount {
  return db.insert(serviceAccounts).values(values).returning().get();
}

/** Service accounts of a team, oldest first. */
export function listServiceAccounts(db: Db, teamId: number): ServiceAccount[] {
  return db.select().from(serviceAccounts).where(eq(serviceAccounts.teamId, teamId)).orderBy(serviceAccounts.id).all();
}

/** The team's service account named `name`, or null. */
export function findServiceAccountByName(db: Db, teamId: number, name: string): ServiceAccount | null {
  return (
    db
      .select()
      .from(serviceAccounts)
      .where(and(eq(serviceAccounts.teamId, teamId), eq(serviceAccounts.name, name)))
      .get() ?? null
  );
}

/** Deletes the team's service account `id`; false when there was none. */
export function deleteServiceAccount(db: Db, teamId: number, id: number): boolean {
  const gone = db
    .delete(serviceAccounts)
    .where(and(eq(serviceAccounts.id, id), eq(serviceAccounts.teamId, teamId)))
    .returning({ id: serviceAccounts.id })
    .get();
  return gone !== undefined;
}

/** Deletes every service account of a team; returns their ids. */
export function deleteTeamServiceAccounts(db: Db, teamId: number): number[] {
  return db.delete(serviceAccounts).where(eq(serviceAccounts.teamId, teamId)).returning({ id: serviceAccounts.id }).all().map((row) => row.id);
}

/** The service account whose key has this lookup hash, or null (login hot path). */
export function findServiceAccountByKeyHash(db: Db, hash: string): ServiceAccount | null {
  return saByKeyHash(db).get({ hash }) ?? null;
}

/** Version, permission and team of a service account, or null (every service/player token check). */
export function serviceAccountState(db: Db, id: number): { version: number; playerCreate: boolean; teamId: number } | null {
  const row = saState(db).get({ id });
  return row ? { version: row.version, playerCreate: row.playerCreate === 1, teamId: row.teamId } : null;
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

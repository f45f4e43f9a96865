/** The service accounts repository (repo.ts) on PostgreSQL; the hot paths are one plain statement each. */
import { and, eq } from "drizzle-orm";
import { type PgDb, query } from "../db/pg/client.ts";
import { serviceAccounts } from "../db/pg/schema.ts";
import type { ServiceAccount } from "../db/schema.ts";
import type { ServiceAccountRepo } from "./repo.ts";

const COLUMNS = `id, team_id AS "teamId", name, player_create AS "playerCreate", key_enc AS "keyEnc", key_hash AS "keyHash",
  version, created_at::float8 AS "createdAt"`;

/** Service accounts on PostgreSQL. */
export function pgServiceAccountRepo(db: PgDb): ServiceAccountRepo {
  const one = async <T>(rows: Promise<T[]>): Promise<T | null> => (await rows)[0] ?? null;
  return {
    insert: async (values) => (await db.insert(serviceAccounts).values(values).returning())[0]!,
    list: (teamId) => db.select().from(serviceAccounts).where(eq(serviceAccounts.teamId, teamId)).orderBy(serviceAccounts.id),
    findByName: (teamId, name) =>
      one(
        db
          .select()
          .from(serviceAccounts)
          .where(and(eq(serviceAccounts.teamId, teamId), eq(serviceAccounts.name, name))),
      ),
    findByKeyHash: (hash) => one(query<ServiceAccount>(db, `SELECT ${COLUMNS} FROM service_accounts WHERE key_hash = $1`, [hash])),
    state: (id) =>
      one(
        query<{ version: number; playerCreate: boolean; teamId: number }>(
          db,
          `SELECT version, player_create AS "playerCreate", team_id AS "teamId" FROM service_accounts WHERE id = $1`,
          [id],
        ),
      ),
    delete: async (teamId, id) =>
      (
        await db
          .delete(serviceAccounts)
          .where(and(eq(serviceAccounts.id, id), eq(serviceAccounts.teamId, teamId)))
          .returning({ id: serviceAccounts.id })
      ).length > 0,
    deleteOfTeam: async (teamId) =>
      (await db.delete(serviceAccounts).where(eq(serviceAccounts.teamId, teamId)).returning({ id: serviceAccounts.id })).map((row) => row.id),
  };
}

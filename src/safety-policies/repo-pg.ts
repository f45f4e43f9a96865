/** The team safety policies repository (repo.ts) on PostgreSQL. */
import { and, asc, eq, sql } from "drizzle-orm";
import { execute, type PgDb, query } from "../db/pg/client.ts";
import { safetyPolicies } from "../db/pg/schema.ts";
import type { SafetyPolicyRepo } from "./repo.ts";

/** Team safety policies on PostgreSQL. */
export function pgSafetyPolicyRepo(db: PgDb): SafetyPolicyRepo {
  const one = async <T>(rows: Promise<T[]>): Promise<T | null> => (await rows)[0] ?? null;
  return {
    find: (teamId, name) =>
      one(
        db
          .select()
          .from(safetyPolicies)
          .where(and(eq(safetyPolicies.teamId, teamId), eq(safetyPolicies.name, name))),
      ),
    list: (teamId) => db.select().from(safetyPolicies).where(eq(safetyPolicies.teamId, teamId)).orderBy(asc(safetyPolicies.name)),
    names: async (teamId) =>
      (await query<{ name: string }>(db, "SELECT name FROM safety_policies WHERE team_id = $1 ORDER BY name", [teamId])).map((row) => row.name),
    count: async (teamId) => (await query<{ n: number }>(db, "SELECT count(*)::int AS n FROM safety_policies WHERE team_id = $1", [teamId]))[0]?.n ?? 0,
    insert: async (teamId, name, body) => (await db.insert(safetyPolicies).values({ teamId, name, body }).returning())[0]!,
    replace: (teamId, name, body) =>
      one(
        db
          .update(safetyPolicies)
          .set({ body, version: sql`${safetyPolicies.version} + 1`, updatedAt: sql`(extract(epoch from clock_timestamp()) * 1000)::bigint` })
          .where(and(eq(safetyPolicies.teamId, teamId), eq(safetyPolicies.name, name)))
          .returning(),
      ),
    delete: async (teamId, name) => (await execute(db, "DELETE FROM safety_policies WHERE team_id = $1 AND name = $2", [teamId, name])) > 0,
  };
}

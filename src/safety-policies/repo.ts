/** Every query about team safety policies. Every one is scoped by team: another team's policies are never read. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { safetyPolicies, type SafetyPolicyRow } from "../db/schema.ts";

/** The team's policy called `name`, or null (every set_configuration that names a team policy). */
export function findPolicy(db: Db, teamId: number, name: string): SafetyPolicyRow | null {
  return byName(db).get({ teamId, name }) ?? null;
}

/** Every policy of the team, by name. */
export function listPolicies(db: Db, teamId: number): SafetyPolicyRow[] {
  return db.select().from(safetyPolicies).where(eq(safetyPolicies.teamId, teamId)).orderBy(asc(safetyPolicies.name)).all();
}

/** The names of the team's policies (for error messages), without reading the bodies. */
export function policyNames(db: Db, teamId: number): string[] {
  return names(db).all({ teamId }).map((row) => row.name);
}

/** How many policies the team has. */
export function countPolicies(db: Db, teamId: number): number {
  return db.select({ n: sql<number>`count(*)` }).from(safetyPolicies).where(eq(safetyPolicies.teamId, teamId)).get()?.n ?? 0;
}

/** Inserts a policy; the unique (team, name) index reports duplicates. */
export function insertPolicy(db: Db, teamId: number, name: string, body: string): SafetyPolicyRow {
  return db.insert(safetyPolicies).values({ teamId, name, body }).returning().get();
}

/** Replaces a policy's body and bumps its version; null when the team has no policy by that name. */
export function replacePolicy(db: Db, teamId: number, name: string, body: string): SafetyPolicyRow | null {
  return (
    db
      .update(safetyPolicies)
      .set({ body, version: sql`${safetyPolicies.version} + 1`, updatedAt: sql`(unixepoch('subsec') * 1000)` })
      .where(and(eq(safetyPolicies.teamId, teamId), eq(safetyPolicies.name, name)))
      .returning()
      .get() ?? null
  );
}

/** Deletes the team's policy; false when there was none. */
export function deletePolicy(db: Db, teamId: number, name: string): boolean {
  return deleteStatement(db).run({ teamId, name }).changes > 0;
}

// bun:sqlite reports the count directly.
const deleteStatement = prepared((db) => db.$client.query<never, { teamId: number; name: string }>("DELETE FROM safety_policies WHERE team_id = $teamId AND name = $name"));

const byName = prepared((db) =>
  db
    .select()
    .from(safetyPolicies)
    .where(and(eq(safetyPolicies.teamId, sql.placeholder("teamId")), eq(safetyPolicies.name, sql.placeholder("name"))))
    .prepare(),
);

const names = prepared((db) => db.$client.query<{ name: string }, { teamId: number }>("SELECT name FROM safety_policies WHERE team_id = $teamId ORDER BY name"));

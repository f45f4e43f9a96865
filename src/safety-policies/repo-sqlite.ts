/** The team safety policies repository (repo.ts) on SQLite. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { safetyPolicies } from "../db/schema.ts";
import type { Synchronous } from "../db/store.ts";
import type { SafetyPolicyRepo } from "./repo.ts";

/** Team safety policies on SQLite. */
export function sqliteSafetyPolicyRepo(db: Db): Synchronous<SafetyPolicyRepo> {
  return {
    find: (teamId, name) => byName(db).get({ teamId, name }) ?? null,
    list: (teamId) => db.select().from(safetyPolicies).where(eq(safetyPolicies.teamId, teamId)).orderBy(asc(safetyPolicies.name)).all(),
    names: (teamId) =>
      names(db)
        .all({ teamId })
        .map((row) => row.name),
    count: (teamId) => db.select({ n: sql<number>`count(*)` }).from(safetyPolicies).where(eq(safetyPolicies.teamId, teamId)).get()?.n ?? 0,
    insert: (teamId, name, body) => db.insert(safetyPolicies).values({ teamId, name, body }).returning().get(),
    replace: (teamId, name, body) =>
      db
        .update(safetyPolicies)
        .set({ body, version: sql`${safetyPolicies.version} + 1`, updatedAt: sql`(unixepoch('subsec') * 1000)` })
        .where(and(eq(safetyPolicies.teamId, teamId), eq(safetyPolicies.name, name)))
        .returning()
        .get() ?? null,
    // bun:sqlite reports the count directly.
    delete: (teamId, name) => deleteStatement(db).run({ teamId, name }).changes > 0,
  };
}

const deleteStatement = prepared((db) =>
  db.$client.query<never, { teamId: number; name: string }>("DELETE FROM safety_policies WHERE team_id = $teamId AND name = $name"),
);

const byName = prepared((db) =>
  db
    .select()
    .from(safetyPolicies)
    .where(and(eq(safetyPolicies.teamId, sql.placeholder("teamId")), eq(safetyPolicies.name, sql.placeholder("name"))))
    .prepare(),
);

const names = prepared((db) =>
  db.$client.query<{ name: string }, { teamId: number }>("SELECT name FROM safety_policies WHERE team_id = $teamId ORDER BY name"),
);

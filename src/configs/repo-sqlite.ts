/** The stored configurations repository (repo.ts) on SQLite. */
import { and, count, countDistinct, eq, max, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { storedConfigs } from "../db/schema.ts";
import type { Synchronous } from "../db/store.ts";
import { LIST_LATEST_SQL, type StoredConfigRepo, type StoredSummary } from "./repo.ts";

/** Stored configurations and utilities on SQLite. */
export function sqliteStoredConfigRepo(db: Db): Synchronous<StoredConfigRepo> {
  const ofName = (teamId: number, kind: string, name: string) =>
    and(eq(storedConfigs.teamId, teamId), eq(storedConfigs.kind, kind as "config"), eq(storedConfigs.name, name));
  return {
    latestVersion: (teamId, kind, name) =>
      db
        .select({ version: max(storedConfigs.version) })
        .from(storedConfigs)
        .where(ofName(teamId, kind, name))
        .get()?.version ?? null,
    findVersion: (teamId, kind, name, version) => versionStatement(db).get({ teamId, kind, name, version }) ?? null,
    findLatest: (teamId, kind, name) => latestStatement(db).get({ teamId, kind, name }) ?? null,
    insert: (values) => db.insert(storedConfigs).values(values).returning().get(),
    // CAST AS BLOB: length() of TEXT counts characters, of a BLOB bytes.
    totalBytes: (teamId) =>
      Number(
        db
          .select({ bytes: sql<number>`coalesce(sum(length(CAST(${storedConfigs.body} AS BLOB))), 0)` })
          .from(storedConfigs)
          .where(eq(storedConfigs.teamId, teamId))
          .get()?.bytes ?? 0,
      ),
    countNames: (teamId, kind) =>
      db
        .select({ names: countDistinct(storedConfigs.name) })
        .from(storedConfigs)
        .where(and(eq(storedConfigs.teamId, teamId), eq(storedConfigs.kind, kind)))
        .get()?.names ?? 0,
    countVersions: (teamId, kind, name) =>
      db
        .select({ versions: count() })
        .from(storedConfigs)
        .where(ofName(teamId, kind, name))
        .get()?.versions ?? 0,
    listLatest: (teamId, kind) => listStatement(db).all(teamId, kind),
    deleteName: (teamId, kind, name) =>
      db
        .delete(storedConfigs)
        .where(ofName(teamId, kind, name))
        .returning({ id: storedConfigs.id })
        .all().length > 0,
  };
}

const versionStatement = prepared((db) =>
  db
    .select()
    .from(storedConfigs)
    .where(
      and(
        eq(storedConfigs.teamId, sql.placeholder("teamId")),
        eq(storedConfigs.kind, sql.placeholder("kind")),
        eq(storedConfigs.name, sql.placeholder("name")),
        eq(storedConfigs.version, sql.placeholder("version")),
      ),
    )
    .prepare(),
);

const latestStatement = prepared((db) =>
  db
    .select()
    .from(storedConfigs)
    .where(
      and(
        eq(storedConfigs.teamId, sql.placeholder("teamId")),
        eq(storedConfigs.kind, sql.placeholder("kind")),
        eq(storedConfigs.name, sql.placeholder("name")),
      ),
    )
    .orderBy(sql`${storedConfigs.version} DESC`)
    .limit(1)
    .prepare(),
);

// One pass over the (team, kind, name, version) index. SQLite reads `$1` as a numbered parameter, as PostgreSQL does.
const listStatement = prepared((db) => db.$client.query<StoredSummary, [number, string]>(LIST_LATEST_SQL));

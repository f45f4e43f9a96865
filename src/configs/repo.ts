/**
 * Every query about stored configurations and utilities. Each row is one version of one name of one kind
 * in one team; rows are only ever inserted (a PUT adds a version) or deleted with their name.
 */
import { and, count, countDistinct, eq, max, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { storedConfigs, type StoredConfig } from "../db/schema.ts";
import type { StoredConfigs } from "../interact/configure.ts";
import { playerState } from "../players/repo.ts";

export type StoredKind = StoredConfig["kind"];

/** One name's latest version, for listings. */
export interface StoredSummary {
  name: string;
  version: number;
  description: string | null;
  /** When the first version was stored (ms). */
  createdAt: number;
  /** When the latest version was stored (ms). */
  updatedAt: number;
}

/** What the interact socket may ask: a name in the team of a player (references in a configuration). */
export function storedConfigLookup(db: Db): StoredConfigs {
  return {
    find(playerId, kind, name, version) {
      const teamId = playerState(db, playerId)?.teamId;
      if (teamId === undefined) return { found: false, latest: null };
      const row = version === null ? findLatest(db, teamId, kind, name) : findVersion(db, teamId, kind, name, version);
      if (row) return { found: true, version: row.version, body: JSON.parse(row.body) as unknown };
      return { found: false, latest: version === null ? null : latestVersion(db, teamId, kind, name) };
    },
  };
}

/** The highest version of a name, or null when the team has no such name. */
export function latestVersion(db: Db, teamId: number, kind: StoredKind, name: string): number | null {
  const row = db
    .select({ version: max(storedConfigs.version) })
    .from(storedConfigs)
    .where(and(eq(storedConfigs.teamId, teamId), eq(storedConfigs.kind, kind), eq(storedConfigs.name, name)))
    .get();
  return row?.version ?? null;
}

/** One version of a name, or null. */
export function findVersion(db: Db, teamId: number, kind: StoredKind, name: string, version: number): StoredConfig | null {
  return versionStatement(db).get({ teamId, kind, name, version }) ?? null;
}

/** The latest version of a name, or null (every set_configuration with a reference). */
export function findLatest(db: Db, teamId: number, kind: StoredKind, name: string): StoredConfig | null {
  return latestStatement(db).get({ teamId, kind, name }) ?? null;
}

/** Adds `version` of a name; the unique (team, kind, name, version) index refuses a duplicate. */
export function insertVersion(db: Db, values: { teamId: number; kind: StoredKind; name: string; version: number; description: string | null; body: string }): StoredConfig {
  return db.insert(storedConfigs).values(values).returning().get();
}

/** How many names of a kind the team stores. */
export function countNames(db: Db, teamId: number, kind: StoredKind): number {
  return (
    db
      .select({ names: countDistinct(storedConfigs.name) })
      .from(storedConfigs)
      .where(and(eq(storedConfigs.teamId, teamId), eq(storedConfigs.kind, kind)))
      .get()?.names ?? 0
  );
}

/** How many versions a name has. */
export function countVersions(db: Db, teamId: number, kind: StoredKind, name: string): number {
  return (
    db
      .select({ versions: count() })
      .from(storedConfigs)
      .where(and(eq(storedConfigs.teamId, teamId), eq(storedConfigs.kind, kind), eq(storedConfigs.name, name)))
      .get()?.versions ?? 0
  );
}

/** The latest version of every name of a kind in the team, ordered by name. */
export function listLatest(db: Db, teamId: number, kind: StoredKind): StoredSummary[] {
  return listStatement(db).all({ teamId, kind });
}

/** Deletes every version of a name; false when the team has no such name. */
export function deleteName(db: Db, teamId: number, kind: StoredKind, name: string): boolean {
  const gone = db
    .delete(storedConfigs)
    .where(and(eq(storedConfigs.teamId, teamId), eq(storedConfigs.kind, kind), eq(storedConfigs.name, name)))
    .returning({ id: storedConfigs.id })
    .all();
  return gone.length > 0;
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
    .where(and(eq(storedConfigs.teamId, sql.placeholder("teamId")), eq(storedConfigs.kind, sql.placeholder("kind")), eq(storedConfigs.name, sql.placeholder("name"))))
    .orderBy(sql`${storedConfigs.version} DESC`)
    .limit(1)
    .prepare(),
);

// The latest row per name with its first version's time, in one pass over the (team, kind, name, version) index.
const listStatement = prepared((db) =>
  db.$client.query<StoredSummary, { teamId: number; kind: string }>(
    `SELECT s.name AS name, s.version AS version, s.description AS description, s.created_at AS updatedAt,
            (SELECT MIN(f.created_at) FROM stored_configs f WHERE f.team_id = s.team_id AND f.kind = s.kind AND f.name = s.name) AS createdAt
       FROM stored_configs s
      WHERE s.team_id = $teamId AND s.kind = $kind
        AND s.version = (SELECT MAX(m.version) FROM stored_configs m WHERE m.team_id = s.team_id AND m.kind = s.kind AND m.name = s.name)
      ORDER BY s.name`,
  ),
);

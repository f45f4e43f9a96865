/**
 * Every query about stored configurations and utilities, as one async interface with a SQLite
 * (repo-sqlite.ts) and a PostgreSQL (repo-pg.ts) implementation; test/db/contract/stored-configs.test.ts
 * holds both to it. Each row is one version of one name of one kind in one team; rows are only ever inserted
 * (a PUT adds a version) or deleted with their name.
 */
import type { StoredConfig } from "../db/schema.ts";
import type { StoredConfigs } from "../interact/configure.ts";
import type { PlayerRepo } from "../players/repo.ts";

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

export type NewStoredVersion = { teamId: number; kind: StoredKind; name: string; version: number; description: string | null; body: string };

export interface StoredConfigRepo {
  /** The highest version of a name, or null when the team has no such name. */
  latestVersion(teamId: number, kind: StoredKind, name: string): Promise<number | null>;
  /** One version of a name, or null. */
  findVersion(teamId: number, kind: StoredKind, name: string, version: number): Promise<StoredConfig | null>;
  /** The latest version of a name, or null (every set_configuration with a reference). */
  findLatest(teamId: number, kind: StoredKind, name: string): Promise<StoredConfig | null>;
  /** Adds `version` of a name; the unique (team, kind, name, version) index refuses a duplicate. */
  insert(values: NewStoredVersion): Promise<StoredConfig>;
  /** How many names of a kind the team stores. */
  countNames(teamId: number, kind: StoredKind): Promise<number>;
  /** Bytes (UTF-8) of every stored body of the team, configurations and utilities, every version. */
  totalBytes(teamId: number): Promise<number>;
  /** How many versions a name has. */
  countVersions(teamId: number, kind: StoredKind, name: string): Promise<number>;
  /** The latest version of every name of a kind in the team, ordered by name. */
  listLatest(teamId: number, kind: StoredKind): Promise<StoredSummary[]>;
  /** Deletes every version of a name; false when the team has no such name. */
  deleteName(teamId: number, kind: StoredKind, name: string): Promise<boolean>;
}

/** What the interact socket may ask: a name in the team of a player (references in a configuration). */
export function storedConfigLookup(store: { players: Pick<PlayerRepo, "state">; storedConfigs: StoredConfigRepo }): StoredConfigs {
  return {
    async find(playerId, kind, name, version) {
      const teamId = (await store.players.state(playerId))?.teamId;
      if (teamId === undefined) return { found: false, latest: null };
      const row =
        version === null ? await store.storedConfigs.findLatest(teamId, kind, name) : await store.storedConfigs.findVersion(teamId, kind, name, version);
      if (row) return { found: true, version: row.version, body: JSON.parse(row.body) as unknown };
      return { found: false, latest: version === null ? null : await store.storedConfigs.latestVersion(teamId, kind, name) };
    },
  };
}

/** The list query both dialects share: the latest row per name with its first version's time. */
export const LIST_LATEST_SQL = `SELECT s.name AS name, s.version AS version, s.description AS description, s.created_at AS "updatedAt",
            (SELECT MIN(f.created_at) FROM stored_configs f WHERE f.team_id = s.team_id AND f.kind = s.kind AND f.name = s.name) AS "createdAt"
       FROM stored_configs s
      WHERE s.team_id = $1 AND s.kind = $2
        AND s.version = (SELECT MAX(m.version) FROM stored_configs m WHERE m.team_id = s.team_id AND m.kind = s.kind AND m.name = s.name)
      ORDER BY s.name`;

/** The stored configurations repository (repo.ts) on PostgreSQL. */
import { and, count, countDistinct, desc, eq, max, sql } from "drizzle-orm";
import { type PgDb, query } from "../db/pg/client.ts";
import { storedConfigs } from "../db/pg/schema.ts";
import { LIST_LATEST_SQL, type StoredConfigRepo, type StoredSummary } from "./repo.ts";

const INT4_MAX = 2_147_483_647;

/** Stored configurations and utilities on PostgreSQL. */
export function pgStoredConfigRepo(db: PgDb): StoredConfigRepo {
  const one = async <T>(rows: Promise<T[]>): Promise<T | null> => (await rows)[0] ?? null;
  const ofName = (teamId: number, kind: "config" | "utility", name: string) =>
    and(eq(storedConfigs.teamId, teamId), eq(storedConfigs.kind, kind), eq(storedConfigs.name, name));
  return {
    latestVersion: async (teamId, kind, name) =>
      (
        await db
          .select({ version: max(storedConfigs.version) })
          .from(storedConfigs)
          .where(ofName(teamId, kind, name))
      )[0]?.version ?? null,
    // A version past the column's range names nothing (PostgreSQL would refuse the comparison).
    findVersion: async (teamId, kind, name, version) =>
      version > INT4_MAX
        ? null
        : one(
            db
              .select()
              .from(storedConfigs)
              .where(and(ofName(teamId, kind, name), eq(storedConfigs.version, version))),
          ),
    findLatest: (teamId, kind, name) =>
      one(
        db
          .select()
          .from(storedConfigs)
          .where(ofName(teamId, kind, name))
          .orderBy(desc(storedConfigs.version))
          .limit(1),
      ),
    insert: async (values) => (await db.insert(storedConfigs).values(values).returning())[0]!,
    totalBytes: async (teamId) =>
      Number(
        (
          await db
            .select({ bytes: sql<string>`coalesce(sum(octet_length(${storedConfigs.body})), 0)` })
            .from(storedConfigs)
            .where(eq(storedConfigs.teamId, teamId))
        )[0]?.bytes ?? 0,
      ),
    countNames: async (teamId, kind) =>
      (
        await db
          .select({ names: countDistinct(storedConfigs.name) })
          .from(storedConfigs)
          .where(and(eq(storedConfigs.teamId, teamId), eq(storedConfigs.kind, kind)))
      )[0]?.names ?? 0,
    countVersions: async (teamId, kind, name) =>
      (
        await db
          .select({ versions: count() })
          .from(storedConfigs)
          .where(ofName(teamId, kind, name))
      )[0]?.versions ?? 0,
    listLatest: async (teamId, kind) =>
      (await query<StoredSummary>(db, LIST_LATEST_SQL, [teamId, kind])).map((row) => ({
        ...row,
        createdAt: Number(row.createdAt),
        updatedAt: Number(row.updatedAt),
      })),
    deleteName: async (teamId, kind, name) =>
      (
        await db
          .delete(storedConfigs)
          .where(ofName(teamId, kind, name))
          .returning({ id: storedConfigs.id })
      ).length > 0,
  };
}

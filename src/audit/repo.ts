/**
 * Every query about the audit trail, as one async interface with a SQLite (repo-sqlite.ts) and a PostgreSQL
 * (repo-pg.ts) implementation; test/db/contract/audit.test.ts holds both to it. Rows name who did what to
 * which player, never any content; reads are scoped by team. Rows outlive the player; only age removes them
 * (HOOT_AUDIT_RETENTION_DAYS).
 */
import type { AuditRow } from "../db/schema.ts";

export type ActorKind = AuditRow["actorKind"];

// A type alias (not an interface), so it is assignable to bun:sqlite's binding record.
export type NewAuditRow = {
  teamId: number;
  actorKind: ActorKind;
  actorPk: number | null;
  action: string;
  playerId: number | null;
  requestId: string | null;
};

export interface AuditRepo {
  /** Writes one row (one prepared statement). */
  insert(row: NewAuditRow): Promise<void>;
  /** Writes the rows in one transaction of their own (all or none): the group commit of reads' rows (batch.ts). */
  insertMany(rows: NewAuditRow[]): Promise<void>;
  /** Up to `limit` rows of a team, newest first, below id `before` (0: from the newest), optionally of one player. */
  list(teamId: number, options: { before: number; limit: number; playerId?: number }): Promise<AuditRow[]>;
  /**
   * Of `playerIds`, those that already have a row of `action` by an actor of `actorKind` written at or after
   * `since` (ms): one query for a batch (the retention purge writes at most one row per player per day).
   */
  playersWithRowSince(action: string, actorKind: ActorKind, since: number, playerIds: number[]): Promise<number[]>;
  /** Deletes rows written before `before` (ms); returns how many. */
  deleteBefore(before: number): Promise<number>;
}

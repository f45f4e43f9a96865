/** The audit repository (repo.ts) on SQLite. */
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { audit } from "../db/schema.ts";
import { irrelevant } from "../db/sqlite/read-cache.ts";
import type { Synchronous } from "../db/store.ts";
import type { AuditRepo, NewAuditRow } from "./repo.ts";

/** The audit trail on SQLite. */
export function sqliteAuditRepo(db: Db): Synchronous<AuditRepo> {
  // Audit rows are never read through the read cache, so writing them does not empty it (read-cache.ts).
  // bun:sqlite's transaction is a plain BEGIN: a busy database fails the first insert after the connection's
  // short busy timeout, as a single insert would, and nothing is written.
  const insertAll = db.$client.transaction((rows: NewAuditRow[]) => {
    const statement = insertStatement(db);
    for (const row of rows) statement.run(row);
  });
  return {
    insert: (row) => void irrelevant(db, () => insertStatement(db).run(row)),
    insertMany: (rows) => {
      if (rows.length > 0) irrelevant(db, () => insertAll(rows));
    },
    list: (teamId, options) => {
      const where: SQL[] = [eq(audit.teamId, teamId)];
      if (options.before > 0) where.push(lt(audit.id, options.before));
      if (options.playerId !== undefined) where.push(eq(audit.playerId, options.playerId));
      return db
        .select()
        .from(audit)
        .where(and(...where))
        .orderBy(desc(audit.id))
        .limit(options.limit)
        .all();
    },
    playersWithRowSince: (action, actorKind, since, playerIds) =>
      playerIds.length === 0
        ? []
        : playersWithRowSince(db)
            .all({ action, actorKind, since, ids: JSON.stringify(playerIds) })
            .map((row) => row.playerId),
    deleteBefore: (before) => deleteBefore(db).run({ before }).changes,
  };
}

// The ids travel as one JSON array: one statement whatever the batch's size (no limit on bound parameters).
const playersWithRowSince = prepared((db) =>
  db.$client.query<{ playerId: number }, { action: string; actorKind: string; since: number; ids: string }>(
    `SELECT DISTINCT player_id AS playerId FROM audit
      WHERE at >= $since AND action = $action AND actor_kind = $actorKind AND player_id IN (SELECT value FROM json_each($ids))`,
  ),
);

const deleteBefore = prepared((db) => db.$client.query<never, { before: number }>("DELETE FROM audit WHERE at < $before"));

const insertStatement = prepared((db) =>
  db.$client.query<never, NewAuditRow>(
    `INSERT INTO audit (team_id, actor_kind, actor_pk, action, player_id, request_id)
     VALUES ($teamId, $actorKind, $actorPk, $action, $playerId, $requestId)`,
  ),
);

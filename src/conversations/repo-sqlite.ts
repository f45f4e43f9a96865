/** The conversations repository (repo.ts) on SQLite: prepared statements, bun:sqlite transactions. */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { conversationMessages } from "../db/schema.ts";
import { irrelevant } from "../db/sqlite/read-cache.ts";
import type { Synchronous } from "../db/store.ts";
import type { ConversationRepo, Role, StoredRow } from "./repo.ts";

/** Stored conversations on SQLite. */
export function sqliteConversationRepo(db: Db): Synchronous<ConversationRepo> {
  const sqlite = db.$client;
  // bun:sqlite's transaction functions nest as savepoints inside a transaction the store already opened.
  const appendAll = sqlite.transaction((playerId: number, messages: { role: Role; sealed: Buffer }[]) => {
    for (const m of messages) insert(db).run({ playerId, role: m.role, textEnc: m.sealed });
  });
  const sealAll = sqlite.transaction((rows: { id: number; sealed: Buffer }[]) => {
    const update = sealStatement(db);
    for (const row of rows) update.run(row.sealed, row.id);
  });
  // Conversation messages are never read through the read cache, so a turn's history write does not empty it
  // (read-cache.ts); deletions stay outside the bracket (they go with a player's deletion or erasure).
  return {
    newest: (playerId, limit) => newest(db).all({ playerId, limit }),
    ofPlayer: (playerId, after, limit) => ofPlayer(db).all({ playerId, after, limit }),
    append: (playerId, messages) => {
      if (messages.length > 0) irrelevant(db, () => appendAll(playerId, messages));
    },
    replaceMessage: (playerId, id, role, sealed) =>
      irrelevant(db, () => (sealed === null ? deleteMessage(db).run(id, playerId, role) : replaceMessage(db).run(sealed, id, playerId, role)).changes > 0),
    playersBefore: (cutoffMs) => playersBefore(db).all(cutoffMs),
    // bun:sqlite reports the count without loading the deleted rows.
    deleteBefore: (cutoffMs) => purgeStatement(db).run(cutoffMs).changes,
    deleteOfPlayer: (playerId) => void deleteOfPlayer(db).run(playerId),
    plainRows: (limit) =>
      sqlite
        .query<{ id: number; playerId: number; role: Role; text: string }, [number]>(
          "SELECT id, player_id AS playerId, role, text FROM conversation_messages WHERE text_enc IS NULL ORDER BY id LIMIT ?",
        )
        .all(limit),
    seal: (rows) => {
      if (rows.length > 0) sealAll(rows);
    },
  };
}

const playersBefore = prepared((db) =>
  db.$client.query<{ playerId: number; teamId: number }, [number]>(
    `SELECT p.id AS playerId, p.team_id AS teamId FROM players p
      WHERE p.id IN (SELECT DISTINCT player_id FROM conversation_messages WHERE created_at < ?) ORDER BY p.id`,
  ),
);

const purgeStatement = prepared((db) => db.$client.query<never, [number]>("DELETE FROM conversation_messages WHERE created_at < ?"));

// Plain bun:sqlite: the blob comes back as a Uint8Array without drizzle's per-row mapping.
const newest = prepared((db) =>
  db.$client.query<StoredRow, { playerId: number; limit: number }>(
    "SELECT id, role, text, text_enc AS sealed FROM conversation_messages WHERE player_id = $playerId ORDER BY id DESC LIMIT $limit",
  ),
);

const ofPlayer = prepared((db) =>
  db.$client.query<StoredRow & { createdAt: number }, { playerId: number; after: number; limit: number }>(
    `SELECT id, role, text, text_enc AS sealed, created_at AS createdAt FROM conversation_messages
      WHERE player_id = $playerId AND id > $after ORDER BY id LIMIT $limit`,
  ),
);

const insert = prepared((db) =>
  db
    .insert(conversationMessages)
    .values({ playerId: sql.placeholder("playerId"), role: sql.placeholder("role"), text: "", textEnc: sql.placeholder("textEnc") })
    .prepare(),
);

const sealStatement = prepared((db) => db.$client.query<never, [Buffer, number]>("UPDATE conversation_messages SET text = '', text_enc = ? WHERE id = ?"));

const replaceMessage = prepared((db) =>
  db.$client.query<never, [Buffer, number, number, Role]>(
    "UPDATE conversation_messages SET text = '', text_enc = ? WHERE id = ? AND player_id = ? AND role = ?",
  ),
);
const deleteMessage = prepared((db) =>
  db.$client.query<never, [number, number, Role]>("DELETE FROM conversation_messages WHERE id = ? AND player_id = ? AND role = ?"),
);

const deleteOfPlayer = prepared((db) => db.$client.query<never, [number]>("DELETE FROM conversation_messages WHERE player_id = ?"));

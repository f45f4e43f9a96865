/** Every query about stored conversations. Rows hold sealed text (`text_enc`); rows of older versions hold plain `text`. */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { conversationMessages } from "../db/schema.ts";

export type Role = "user" | "assistant";

export interface StoredRow {
  id: number;
  role: Role;
  /** Plain text of an old row, "" on a sealed one. */
  text: string;
  sealed: Uint8Array | null;
}

/** The newest `limit` rows of a player, newest first. */
export function newestRows(db: Db, playerId: number, limit: number): StoredRow[] {
  return newest(db).all({ playerId, limit });
}

/** Appends sealed messages for a player in one transaction. */
export function appendSealed(db: Db, playerId: number, messages: { role: Role; sealed: Buffer }[]): void {
  if (messages.length === 0) return;
  db.transaction(() => {
    for (const m of messages) insert(db).run({ playerId, role: m.role, textEnc: m.sealed });
  });
}

/** Deletes every message created before `cutoffMs`; returns how many went. */
export function deleteMessagesBefore(db: Db, cutoffMs: number): number {
  // bun:sqlite reports the count without loading the deleted rows.
  return purgeStatement(db).run(cutoffMs).changes;
}

/** Up to `limit` rows still in plain text (written before encryption at rest), oldest first. */
export function plainRows(db: Db, limit: number): { id: number; playerId: number; role: Role; text: string }[] {
  return db.$client
    .query<{ id: number; playerId: number; role: Role; text: string }, [number]>(
      "SELECT id, player_id AS playerId, role, text FROM conversation_messages WHERE text_enc IS NULL ORDER BY id LIMIT ?",
    )
    .all(limit);
}

/** Replaces the plain text of rows with their sealed form, in one transaction. */
export function sealRows(db: Db, rows: { id: number; sealed: Buffer }[]): void {
  const update = db.$client.query<unknown, [Buffer, number]>("UPDATE conversation_messages SET text = '', text_enc = ? WHERE id = ?");
  db.transaction(() => {
    for (const row of rows) update.run(row.sealed, row.id);
  });
}

const purgeStatement = prepared((db) => db.$client.query("DELETE FROM conversation_messages WHERE created_at < ?"));

// Plain bun:sqlite: the blob comes back as a Uint8Array without drizzle's per-row mapping.
const newest = prepared((db) =>
  db.$client.query<StoredRow, { playerId: number; limit: number }>(
    "SELECT id, role, text, text_enc AS sealed FROM conversation_messages WHERE player_id = $playerId ORDER BY id DESC LIMIT $limit",
  ),
);

const insert = prepared((db) =>
  db
    .insert(conversationMessages)
    .values({ playerId: sql.placeholder("playerId"), role: sql.placeholder("role"), text: "", textEnc: sql.placeholder("textEnc") })
    .prepare(),
);

/** Deletes every message of a player (player deletion; added by the accounts work so players/ holds no conversation SQL). */
export function deleteMessagesOfPlayer(db: Db, playerId: number): void {
  deleteOfPlayer(db).run(playerId);
}

const deleteOfPlayer = prepared((db) => db.$client.query("DELETE FROM conversation_messages WHERE player_id = ?"));

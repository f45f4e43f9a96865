/** Every query about stored conversations. */
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { conversationMessages } from "../db/schema.ts";

export interface StoredMessage {
  role: "user" | "assistant";
  text: string;
}

/** The newest `limit` messages of a player, newest first. */
export function newestMessages(db: Db, playerId: number, limit: number): StoredMessage[] {
  return newest(db).all({ playerId, limit });
}

/** Appends messages for a player in one transaction. */
export function appendMessages(db: Db, playerId: number, messages: StoredMessage[]): void {
  if (messages.length === 0) return;
  db.transaction(() => {
    for (const m of messages) insert(db).run({ playerId, role: m.role, text: m.text });
  });
}

/** Deletes every message created before `cutoffMs`; returns how many went. */
export function deleteMessagesBefore(db: Db, cutoffMs: number): number {
  // bun:sqlite reports the count without loading the deleted rows.
  return purgeStatement(db).run(cutoffMs).changes;
}

const purgeStatement = prepared((db) => db.$client.query("DELETE FROM conversation_messages WHERE created_at < ?"));

const newest = prepared((db) =>
  db
    .select({ role: conversationMessages.role, text: conversationMessages.text })
    .from(conversationMessages)
    .where(eq(conversationMessages.playerId, sql.placeholder("playerId")))
    .orderBy(desc(conversationMessages.id))
    .limit(sql.placeholder("limit"))
    .prepare(),
);

const insert = prepared((db) =>
  db
    .insert(conversationMessages)
    .values({ playerId: sql.placeholder("playerId"), role: sql.placeholder("role"), text: sql.placeholder("text") })
    .prepare(),
);

/** Deletes every message of a player (player deletion; added by the accounts work so players/ holds no conversation SQL). */
export function deleteMessagesOfPlayer(db: Db, playerId: number): void {
  deleteOfPlayer(db).run(playerId);
}

const deleteOfPlayer = prepared((db) => db.$client.query("DELETE FROM conversation_messages WHERE player_id = ?"));

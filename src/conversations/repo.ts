/**
 * Every query about stored conversations, as one async interface with a SQLite (repo-sqlite.ts) and a
 * PostgreSQL (repo-pg.ts) implementation; test/db/contract/conversations.test.ts holds both to it. Rows hold
 * sealed text (`text_enc`); rows of older SQLite versions hold plain `text`. Nothing here encrypts: the
 * service seals before it writes and opens after it reads (cipher.ts).
 */
export type Role = "user" | "assistant";

export interface StoredRow {
  id: number;
  role: Role;
  /** Plain text of an old row, "" on a sealed one. */
  text: string;
  sealed: Uint8Array | null;
}

export interface ConversationRepo {
  /** The newest `limit` rows of a player, newest first (every turn). */
  newest(playerId: number, limit: number): Promise<StoredRow[]>;
  /**
   * Up to `limit` rows of a player with ids above `after` (0: from the first), oldest first, with when each was
   * written: a parent's request for their child's data reads the whole history in such batches, never at once.
   */
  ofPlayer(playerId: number, after: number, limit: number): Promise<(StoredRow & { createdAt: number })[]>;
  /** Appends sealed messages for a player, all or none (one transaction or one statement). */
  append(playerId: number, messages: { role: Role; sealed: Buffer }[]): Promise<void>;
  /**
   * Replaces the sealed text of the player's message `id` when it has `role` (null deletes it): a listener heard
   * only part of that reply (the Realtime wire's truncate). False when no such message of that player and role.
   */
  replaceMessage(playerId: number, id: number, role: Role, sealed: Buffer | null): Promise<boolean>;
  /** The players (and their teams) with messages created before `cutoffMs`: whom a retention purge is about to touch. */
  playersBefore(cutoffMs: number): Promise<{ playerId: number; teamId: number }[]>;
  /** Deletes every message created before `cutoffMs`; returns how many went. */
  deleteBefore(cutoffMs: number): Promise<number>;
  /** Deletes every message of a player (player deletion). */
  deleteOfPlayer(playerId: number): Promise<void>;
  /** Up to `limit` rows still in plain text (written before encryption at rest), oldest first. */
  plainRows(limit: number): Promise<{ id: number; playerId: number; role: Role; text: string }[]>;
  /** Replaces the plain text of rows with their sealed form, all or none. */
  seal(rows: { id: number; sealed: Buffer }[]): Promise<void>;
}

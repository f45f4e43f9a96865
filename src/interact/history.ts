/**
 * The session's view of player memory: load the conversation before a turn, record what was sent after it.
 * The session gets this small interface instead of the database, so it can be tested with a fake; the real
 * one wraps src/conversations. `record` may be slow or fail (a busy database): the turn waits for it before
 * acknowledging the interaction, so an acknowledged turn is never lost.
 */

import { amendReply, type ConversationNeeds, loadHistory, type OpenedRows, saveTurn } from "../conversations/service.ts";
import type { HistoryMessage } from "../engine/index.ts";

/** One finished turn as it is remembered. */
export interface TurnRecord {
  /** The child's words, or null on a "." turn. */
  userText: string | null;
  /** What was actually sent (cut at the client's `at_character` after an interruption). */
  reply: string;
}

export interface History {
  /** The player's remembered conversation, oldest first. */
  load(playerId: number): Promise<HistoryMessage[]>;
  /** Stores one turn; rejects when it could not be stored. */
  record(playerId: number, turn: TurnRecord): Promise<void>;
  /**
   * Cuts a recorded reply (`whole`, as it was recorded) to what was heard (`reply`; "" forgets it); false when
   * no such reply is remembered.
   */
  amendReply?(playerId: number, whole: string, reply: string): Promise<boolean>;
  /**
   * The same history for one session, remembering the rows it has decrypted (so each stored message is
   * decrypted once per session instead of once per turn); gone with the session.
   */
  forSession?(): History;
}

/**
 * `ports` with the history of one session, where the history offers one.
 * @example const turnPorts = sessionHistory(ports)
 */
export function sessionHistory<P extends { history: History }>(ports: P): P {
  const own = ports.history.forSession?.();
  return own ? { ...ports, history: own } : ports;
}

/**
 * History kept in the database through src/conversations, `budgetChars` of it given to each turn.
 * @example const history = conversationHistory(deps, config.historyBudgetChars)
 */
export function conversationHistory(deps: Pick<ConversationNeeds, "store" | "textCipher">, budgetChars: number, lockDeadlineMs = 5000): History {
  const history = (opened?: OpenedRows): History => ({
    load: (playerId) => loadHistory(deps, playerId, budgetChars, opened),
    // saveTurn waits asynchronously while the database is busy (never blocking the event loop).
    record: (playerId, turn) => saveTurn(deps, playerId, turn.userText, turn.reply, lockDeadlineMs),
    amendReply: (playerId, whole, reply) => amendReply(deps, playerId, whole, reply, lockDeadlineMs),
    forSession: () => history(new Map()),
  });
  return history();
}

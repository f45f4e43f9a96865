/**
 * The session's view of player memory: load the conversation before a turn, record what was sent after it.
 * The session gets this small interface instead of the database, so it can be tested with a fake; the real
 * one wraps src/conversations. `record` may be slow or fail (a busy database): the turn waits for it before
 * acknowledging the interaction, so an acknowledged turn is never lost.
 */

import { amendLastReply, type ConversationNeeds, loadHistory, saveTurn } from "../conversations/service.ts";
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
  /** Cuts the last reply to what was heard ("" forgets it); false when the newest message is not a reply. */
  amendLastReply?(playerId: number, reply: string): Promise<boolean>;
}

/**
 * History kept in the database through src/conversations, `budgetChars` of it given to each turn.
 * @example const history = conversationHistory(deps, config.historyBudgetChars)
 */
export function conversationHistory(deps: Pick<ConversationNeeds, "store" | "textCipher">, budgetChars: number, lockDeadlineMs = 5000): History {
  return {
    load: (playerId) => loadHistory(deps, playerId, budgetChars),
    // saveTurn waits asynchronously while the database is busy (never blocking the event loop).
    record: (playerId, turn) => saveTurn(deps, playerId, turn.userText, turn.reply, lockDeadlineMs),
    amendLastReply: (playerId, reply) => amendLastReply(deps, playerId, reply, lockDeadlineMs),
  };
}

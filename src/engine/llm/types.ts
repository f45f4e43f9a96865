/**
 * The language model contract. A provider streams the reply as text deltas; the engine adds timeouts, the
 * single retry and the mapping to `interaction_error`, so providers stay small.
 */
import type { Context } from "../types.ts";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Structured facts about the turn, for providers that do not read prompts (the offline local engine). */
export interface LlmHints {
  /** The character's name guessed from the configuration prompt ("Ollie"), or null. */
  characterName: string | null;
  /** What the character is ("owl"), or null. */
  characterKind: string | null;
  /** The configuration prompt with its placeholders filled. */
  characterPrompt: string;
  /** The child's words, or null on a "." turn. */
  userText: string | null;
  context: Context;
  /** A "." turn that opens the conversation: the character speaks first. */
  isGreeting: boolean;
  /** Replies the character gave earlier in this conversation (0 on the first turn). */
  turn: number;
  /** The character's last reply, so a provider can avoid saying the same thing twice. */
  previousReply: string | null;
}

export interface LlmRequest {
  messages: ChatMessage[];
  /** 0..2; the provider's default when absent. */
  temperature?: number;
  /** Aborted on interruption or timeout; the provider must stop its request at once. */
  signal: AbortSignal;
  hints?: LlmHints;
}

export interface LlmProvider {
  readonly name: string;
  /**
   * Streams the reply as non-empty text deltas. Ends without throwing once `signal` aborts;
   * throws LlmError on failure.
   */
  stream(request: LlmRequest): AsyncIterable<string>;
  close(): Promise<void>;
}

/**
 * The language model contract. A provider streams the reply as text deltas; the engine adds timeouts, the
 * single retry and the mapping to an error frame, so providers stay small.
 */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface LlmRequest {
  messages: ChatMessage[];
  /** 0..2; the provider's default when absent. */
  temperature?: number;
  /** Aborted on interruption or timeout; the provider must stop its request at once. */
  signal: AbortSignal;
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

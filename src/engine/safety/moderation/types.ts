/**
 * A model-based checker behind the same interface as the rules: given a text, the categories it flags.
 * It throws on any failure (network, status, unreadable answer, timeout); `moderated.ts` turns that into a
 * safe outcome (the sentence is held, never passed).
 */
import type { Category, Direction } from "../detect/categories.ts";

export interface ModerationProvider {
  readonly name: string;
  /**
   * Categories the model flags in `text` (empty when it is safe). `context` is the child's (redacted) message
   * when checking a reply sentence, for models that judge a reply in its conversation.
   */
  moderate(text: string, direction: Direction, signal: AbortSignal, context?: string): Promise<Category[]>;
}

export class ModerationError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ModerationError";
  }
}

/** Settings shared by the providers (from src/config.ts). */
export interface ModerationSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
}

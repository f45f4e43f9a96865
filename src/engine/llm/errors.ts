/**
 * One error class for every language model failure. `category` says what went wrong (for logs and for the
 * wire code), `retryable` whether asking again might work. The message is for developers' logs and never
 * includes the provider's own error text, which can echo parts of a key.
 */

export type LlmErrorCategory = "connection" | "timeout" | "rate_limit" | "server" | "auth" | "request" | "protocol" | "unknown";

export class LlmError extends Error {
  constructor(
    message: string,
    readonly category: LlmErrorCategory,
    readonly retryable: boolean,
    /** HTTP status when the provider answered with one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = "LlmError";
  }
}

/** Categories worth one more try: the next request may well succeed. */
export function isRetryableCategory(category: LlmErrorCategory): boolean {
  return category === "connection" || category === "timeout" || category === "rate_limit" || category === "server" || category === "protocol";
}

/** Wraps anything thrown by a provider as an LlmError (unknown errors are not retried). */
export function toLlmError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  return new LlmError("the language model provider failed", "unknown", false);
}

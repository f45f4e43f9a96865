/**
 * Any OpenAI-compatible chat-completions endpoint with streaming: OpenAI, Ollama, vLLM, llama.cpp, LM Studio.
 * Uses the `openai` client with its own retries off (the engine retries once) and its own timeout far away
 * (the engine's first-token and stall deadlines abort the request through the signal).
 *
 * The client is built from explicit settings only (see openai-sdk.ts), on the first request.
 */
import { isRetryableCategory, LlmError, type LlmErrorCategory } from "./errors.ts";
import { lazyOpenAiClient, type OpenAiSdk, openAiSdk } from "./openai-sdk.ts";
import type { LlmProvider, LlmRequest } from "./types.ts";

export interface OpenAiLlmOptions {
  baseUrl: string;
  /** May be empty for local servers. */
  apiKey: string;
  model: string;
}

/**
 * A provider streaming from an OpenAI-compatible server.
 * @example createOpenAiLlm({ baseUrl: "http://127.0.0.1:11434/v1", apiKey: "", model: "llama3.2" })
 */
export function createOpenAiLlm(options: OpenAiLlmOptions): LlmProvider {
  const client = lazyOpenAiClient(options);

  async function* stream(request: LlmRequest): AsyncGenerator<string> {
    try {
      const completion = await (await client()).chat.completions.create(
        {
          model: options.model,
          messages: request.messages,
          stream: true,
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        },
        { signal: request.signal },
      );
      for await (const chunk of completion) {
        const delta = chunk.choices[0]?.delta?.content;
        if (delta) yield delta;
      }
    } catch (error) {
      if (request.signal.aborted) return;
      throw describe(await openAiSdk(), error);
    }
  }

  return { name: "openai", stream, close: async () => {} };
}

/** Maps a client error to an LlmError without copying the server's message (it can quote the key). */
function describe({ APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError }: OpenAiSdk, error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof APIUserAbortError) return new LlmError("the language model request was aborted", "connection", true);
  if (error instanceof APIConnectionTimeoutError) return new LlmError("the language model request timed out", "timeout", true);
  if (error instanceof APIConnectionError) return new LlmError("could not connect to the language model server", "connection", true);
  if (error instanceof APIError && typeof error.status === "number") {
    const category = statusCategory(error.status);
    return new LlmError(`the language model server answered HTTP ${error.status}`, category, isRetryableCategory(category), error.status);
  }
  return new LlmError("the language model stream could not be read", "protocol", true);
}

function statusCategory(status: number): LlmErrorCategory {
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limit";
  if (status === 408 || status === 409 || status >= 500) return "server";
  return "request";
}

/**
 * The `openai` package, loaded on first use rather than at start-up (a deployment on the local model never
 * needs it), and the one way hoot builds its client: explicit settings only (organisation, project and base
 * URL are never picked up from OPENAI_* variables), the client's own retries off (the engine retries once),
 * its own timeout far away (the engine's deadlines abort through the signal), and no Authorization header
 * when the key is empty (local servers need none).
 */
import type OpenAI from "openai";

export type OpenAiSdk = typeof import("openai");

/** The client's own timeout only backs up the engine's deadlines. */
const CLIENT_TIMEOUT_MS = 10 * 60 * 1000;

let loading: Promise<OpenAiSdk> | null = null;

/**
 * The package (loaded once).
 * @example const { APIError } = await openAiSdk()
 */
export function openAiSdk(): Promise<OpenAiSdk> {
  loading ??= import("openai");
  return loading;
}

/**
 * A client for `baseUrl`, made on the first call and shared afterwards.
 * @example const client = lazyOpenAiClient({ baseUrl, apiKey: "" }); const c = await client()
 */
export function lazyOpenAiClient(options: { baseUrl: string; apiKey: string }): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | null = null;
  return () =>
    (client ??= openAiSdk().then(
      ({ default: Client }) =>
        new Client({
          baseURL: options.baseUrl,
          // The client refuses to start without a key; with an empty one the header is removed instead.
          apiKey: options.apiKey || "none",
          organization: null,
          project: null,
          maxRetries: 0,
          timeout: CLIENT_TIMEOUT_MS,
          defaultHeaders: options.apiKey ? undefined : { Authorization: null },
        }),
    ));
}

/**
 * Utilities as side calls to an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp, LM Studio), not streamed, at temperature 0:
 *
 * - classify asks for structured output, `{"answer": ...}` with the answers as a JSON Schema `enum`, so a
 *   server that supports it can only answer one of them; the answer is still checked and matched to the
 *   developer's spelling (case and punctuation aside), and anything else is a failure, never passed on;
 * - extract asks for `{"value": <string>}` and keeps at most MAX_EXTRACT_CHARS characters.
 *
 * A server that refuses `response_format` (HTTP 400/422) is asked again once without it, with the same
 * constraint in words, and from then on this model asks it that way. Errors never carry the server's
 * message (it can quote the key).
 */
import { lazyOpenAiClient, openAiSdk } from "../llm/openai-sdk.ts";
import type { ChatMessage } from "../llm/types.ts";
import { classifyMessages, extractMessages } from "./prompt.ts";
import { UtilityFailure, type UtilityModel, type UtilityQuery } from "./types.ts";

export interface OpenAiUtilityOptions {
  baseUrl: string;
  /** May be empty for local servers. */
  apiKey: string;
  model: string;
}

/** Longest extract answer kept. */
export const MAX_EXTRACT_CHARS = 200;

type Format = { type: "json_schema"; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };

/**
 * The utility model over an OpenAI-compatible server.
 * @example createOpenAiUtilityModel({ baseUrl: "http://127.0.0.1:11434/v1", apiKey: "", model: "llama3.2" })
 */
export function createOpenAiUtilityModel(options: OpenAiUtilityOptions): UtilityModel {
  const client = lazyOpenAiClient(options);
  let structured = true;

  async function ask(messages: ChatMessage[], format: Format, signal: AbortSignal): Promise<string> {
    const { APIError } = await openAiSdk();
    const send = async (withFormat: boolean) => {
      const completion = await (await client()).chat.completions.create(
        { model: options.model, messages, temperature: 0, stream: false, ...(withFormat ? { response_format: format } : {}) },
        { signal },
      );
      return completion.choices[0]?.message?.content ?? "";
    };
    try {
      if (!structured) return await send(false);
      try {
        return await send(true);
      } catch (error) {
        if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422) || signal.aborted) throw error;
        structured = false;
        return await send(false);
      }
    } catch (error) {
      if (signal.aborted) throw new UtilityFailure("the utility was stopped before the model answered", "utility_timeout");
      if (error instanceof APIError && typeof error.status === "number") throw new UtilityFailure(`the utility model server answered HTTP ${error.status}`);
      throw new UtilityFailure("the utility model server could not be reached");
    }
  }

  return {
    name: "openai",
    async classify(query: UtilityQuery, answers: readonly string[]): Promise<string> {
      const schema = { type: "object", properties: { answer: { type: "string", enum: [...answers] } }, required: ["answer"], additionalProperties: false };
      const content = await ask(
        classifyMessages(query, answers),
        { type: "json_schema", json_schema: { name: "classification", strict: true, schema } },
        query.signal,
      );
      const answer = matchAnswer(field(content, "answer"), answers) ?? matchAnswer(content, answers);
      if (answer === null) throw new UtilityFailure("the model's answer was not one of the answers");
      return answer;
    },
    async extract(query: UtilityQuery): Promise<string> {
      const schema = { type: "object", properties: { value: { type: "string" } }, required: ["value"], additionalProperties: false };
      const content = await ask(extractMessages(query), { type: "json_schema", json_schema: { name: "extraction", strict: true, schema } }, query.signal);
      const value = field(content, "value") ?? unquote(content);
      return value.trim().slice(0, MAX_EXTRACT_CHARS);
    },
  };
}

/** The string field `name` of a JSON object reply, or null when the reply is not one. */
function field(content: string, name: string): string | null {
  try {
    const parsed = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, "")) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
    const value = (parsed as Record<string, unknown>)[name];
    if (value === null || value === undefined) return Object.hasOwn(parsed, name) ? "" : null;
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

function unquote(content: string): string {
  return content.trim().replace(/^["'“]+|["'”.]+$/g, "");
}

function simple(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s"'“”‘’.,!?:;()[\]{}]+/g, " ")
    .trim();
}

/**
 * The developer's spelling of the answer a model gave: exact, else equal apart from case and punctuation,
 * else the only answer the reply names as a whole word. Null when none fits.
 */
export function matchAnswer(reply: string | null, answers: readonly string[]): string | null {
  if (reply === null) return null;
  if (answers.includes(reply)) return reply;
  const wanted = simple(reply);
  const same = answers.find((answer) => simple(answer) === wanted);
  if (same !== undefined) return same;
  const named = answers.filter((answer) => simple(answer) !== "" && ` ${wanted} `.includes(` ${simple(answer)} `));
  return named.length === 1 ? (named[0] as string) : null;
}

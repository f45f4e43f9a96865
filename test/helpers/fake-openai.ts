/**
 * One fake OpenAI-compatible service on loopback (Bun.serve, 127.0.0.1, port 0) for every test that needs a network
 * provider. Its routes, each configured per test and each recording what it was sent:
 * - POST …/chat/completions: streamed replies (real SSE chunks) take the next planned reply (`plan`), else
 *   `options.reply`; a reply is a token list, or a behaviour (slow tokens, a stall, a late header, an HTTP status).
 *   Calls that are not streamed (the utilities' side calls, the guard model) get a chat.completion from
 *   `options.utility`, which sees the whole body so a test can answer by what it was asked;
 * - POST …/audio/speech: records the text and answers silent 24 kHz PCM;
 * - POST …/moderations: the next planned behaviour (`moderate`): safe, flagged categories, slow, or an HTTP status;
 * - POST …/audio/transcriptions: checks the multipart form (a 16 kHz mono 16-bit WAV in `file`), keeps the decoded
 *   samples, and answers `transcript` after `sttLatencyMs`, or `sttStatus` when set.
 * Anything else is a 404.
 * @example const fake = startFakeOpenAi({ reply: ["Hi", " there!"] }); startTestServer({ HOOT_LLM_BASE_URL: fake.url })
 */
import type { Server } from "bun";
import { readWav16k } from "../engine/voice-in/helpers/speech.ts";

export interface ChatBody {
  model?: string;
  stream?: boolean;
  temperature?: number;
  messages: { role: string; content: string }[];
  response_format?: {
    type: string;
    json_schema?: { name: string; strict?: boolean; schema: { properties: Record<string, { type: string; enum?: string[] }> } };
  };
}

export interface ChatRequest {
  path: string;
  authorization: string | null;
  /** The client went away before the response ended. */
  aborted: boolean;
  body: ChatBody;
}

/** What a streamed chat call gets: tokens (optionally slowly, stalling after some, or after a late header), or a status. */
export type ChatBehaviour =
  | { kind: "stream"; tokens: string[]; delayMs?: number; stallAfter?: number; headerDelayMs?: number }
  | { kind: "status"; status: number };
/** A token list is shorthand for `{ kind: "stream", tokens }`. */
export type ChatReply = string[] | ChatBehaviour;

/** What a call that is not streamed gets: answer content, an HTTP status, or wait first. */
export type UtilityAnswer = { content: string; delayMs?: number } | { status: number; delayMs?: number };

export type ModerationBehaviour = { kind: "safe" } | { kind: "flag"; categories: string[] } | { kind: "slow"; ms: number } | { kind: "status"; status: number };

export interface SttRequest {
  model: string | null;
  language: string | null;
  responseFormat: string | null;
  fileName: string | null;
  fileType: string | null;
  /** The WAV's samples, or null when it was no 16 kHz mono 16-bit WAV (then `wavError` says why). */
  samples: Int16Array | null;
  wavError: string | null;
}

export interface FakeOpenAiOptions {
  /** The streamed reply when none is planned (default: "Hello there!" in two tokens). */
  reply?: ChatReply | ((body: ChatBody) => ChatReply);
  /** The answer to a call that is not streamed (default: `{"answer": "no"}`). */
  utility?: (body: ChatBody) => UtilityAnswer;
  /** Milliseconds between streamed tokens (a planned behaviour's own `delayMs` wins). */
  tokenDelayMs?: number;
  /** What transcriptions answer (default: "I want to play with my puppy"). */
  transcript?: string;
  sttLatencyMs?: number;
}

export interface FakeOpenAi {
  /** The base URL to give hoot (ends in /v1). */
  url: string;
  /** Every chat-completion call, in arrival order. */
  chats: ChatRequest[];
  /** The bodies of the calls that were not streamed (utility side calls). */
  utilityCalls(): ChatBody[];
  /** The bodies of the streamed reply calls. */
  replyCalls(): ChatBody[];
  /** The next streamed replies, in order. */
  plan(...replies: ChatReply[]): void;
  tokenDelayMs: number;
  /** Every sentence the speech route was asked to say. */
  spoken: string[];
  /** Every text the moderation route was asked to judge. */
  moderated: string[];
  /** The next moderation answers (the fallback is safe). */
  moderate(...behaviours: ModerationBehaviour[]): void;
  /** Every transcription request. */
  transcriptions: SttRequest[];
  transcript: string;
  sttLatencyMs: number;
  /** When set, every transcription is answered with this HTTP status. */
  sttStatus: number | null;
  stop(): Promise<void>;
}

const encoder = new TextEncoder();
const FAILURE = { error: { message: "fake failure for sk-secret-in-message", type: "server_error" } };

function chunk(delta: Record<string, string>, finish: string | null = null): Uint8Array {
  const body = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1, model: "fake-model", choices: [{ index: 0, delta, finish_reason: finish }] };
  return encoder.encode(`data: ${JSON.stringify(body)}\n\n`);
}

const behaviourOf = (reply: ChatReply): ChatBehaviour => (Array.isArray(reply) ? { kind: "stream", tokens: reply } : reply);

/** Starts the fake (synchronously, so a test file can start it before its server); `stop()` it in afterAll. */
export function startFakeOpenAi(options: FakeOpenAiOptions = {}): FakeOpenAi {
  const planned: ChatReply[] = [];
  const moderations: ModerationBehaviour[] = [];
  const fake: FakeOpenAi = {
    url: "",
    chats: [],
    utilityCalls: () => fake.chats.filter((c) => !c.body.stream).map((c) => c.body),
    replyCalls: () => fake.chats.filter((c) => c.body.stream).map((c) => c.body),
    plan: (...replies) => void planned.push(...replies),
    tokenDelayMs: options.tokenDelayMs ?? 0,
    spoken: [],
    moderated: [],
    moderate: (...behaviours) => void moderations.push(...behaviours),
    transcriptions: [],
    transcript: options.transcript ?? "I want to play with my puppy",
    sttLatencyMs: options.sttLatencyMs ?? 0,
    sttStatus: null,
    stop: async () => {},
  };

  async function chat(req: Request, path: string): Promise<Response> {
    const body = (await req.json()) as ChatBody;
    const received: ChatRequest = { path, authorization: req.headers.get("authorization"), aborted: false, body };
    fake.chats.push(received);
    req.signal.addEventListener("abort", () => (received.aborted = true));
    if (!body.stream) {
      const answer = options.utility?.(body) ?? { content: '{"answer": "no"}' };
      if (answer.delayMs) await Bun.sleep(answer.delayMs);
      if ("status" in answer) return Response.json(FAILURE, { status: answer.status });
      const message = { role: "assistant", content: answer.content };
      return Response.json({
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 1,
        model: body.model ?? "fake",
        choices: [{ index: 0, message, finish_reason: "stop" }],
      });
    }
    const fallback = typeof options.reply === "function" ? options.reply(body) : (options.reply ?? ["Hello", " there!"]);
    const behaviour = behaviourOf(planned.shift() ?? fallback);
    if (behaviour.kind === "status") return Response.json(FAILURE, { status: behaviour.status });
    if (behaviour.headerDelayMs) await Bun.sleep(behaviour.headerDelayMs);
    const delayMs = behaviour.delayMs ?? fake.tokenDelayMs;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (bytes: Uint8Array): boolean => {
          if (req.signal.aborted) return false;
          try {
            controller.enqueue(bytes);
            return true;
          } catch {
            return false;
          }
        };
        send(chunk({ role: "assistant", content: "" }));
        for (let i = 0; i < behaviour.tokens.length; i++) {
          if (i === behaviour.stallAfter) return; // never closes: the client must give up on its own
          if (delayMs) await Bun.sleep(delayMs);
          if (!send(chunk({ content: behaviour.tokens[i] as string }))) return;
        }
        send(chunk({}, "stop"));
        send(encoder.encode("data: [DONE]\n\n"));
        try {
          controller.close();
        } catch {
          // the client already went away
        }
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  }

  async function speech(req: Request): Promise<Response> {
    const body = (await req.json()) as { input?: unknown };
    fake.spoken.push(String(body.input));
    return new Response(new Uint8Array(4800), { headers: { "content-type": "audio/pcm" } });
  }

  async function moderation(req: Request): Promise<Response> {
    const body = (await req.json()) as { input?: unknown };
    fake.moderated.push(String(body.input));
    const behaviour = moderations.shift() ?? { kind: "safe" };
    if (behaviour.kind === "status") return Response.json({ error: { message: "fake moderation failure" } }, { status: behaviour.status });
    if (behaviour.kind === "slow") await Bun.sleep(behaviour.ms);
    const flagged = behaviour.kind === "flag" ? behaviour.categories : [];
    return Response.json({
      id: "modr-fake",
      model: "fake",
      results: [{ flagged: flagged.length > 0, categories: Object.fromEntries(flagged.map((c) => [c, true])) }],
    });
  }

  async function transcription(req: Request): Promise<Response> {
    const form = await req.formData();
    const file = form.get("file");
    let samples: Int16Array | null = null;
    let wavError: string | null = file instanceof Blob ? null : "no file";
    if (file instanceof Blob) {
      try {
        samples = readWav16k(new Uint8Array(await file.arrayBuffer()));
      } catch (error) {
        wavError = (error as Error).message;
      }
    }
    fake.transcriptions.push({
      model: form.get("model") as string | null,
      language: form.get("language") as string | null,
      responseFormat: form.get("response_format") as string | null,
      fileName: file instanceof File ? file.name : null,
      fileType: file instanceof Blob ? file.type : null,
      samples,
      wavError,
    });
    if (fake.sttLatencyMs) await Bun.sleep(fake.sttLatencyMs);
    if (fake.sttStatus) return Response.json({ error: { message: "failed as told" } }, { status: fake.sttStatus });
    if (wavError) return Response.json({ error: { message: wavError } }, { status: 400 });
    return Response.json({ text: fake.transcript });
  }

  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (req.method !== "POST") return new Response("not found", { status: 404 });
      if (path.endsWith("/chat/completions")) return chat(req, path);
      if (path.endsWith("/audio/speech")) return speech(req);
      if (path.endsWith("/moderations")) return moderation(req);
      if (path.endsWith("/audio/transcriptions")) return transcription(req);
      return new Response("not found", { status: 404 });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}/v1`;
  fake.stop = () => server.stop(true);
  return fake;
}

/** Settings that point hoot's language model and speech at the fake. */
export function fakeProviderEnv(fake: FakeOpenAi, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOOT_LLM_PROVIDER: "openai",
    HOOT_LLM_BASE_URL: fake.url,
    HOOT_LLM_API_KEY: "sk-fake",
    HOOT_TTS_PROVIDER: "openai",
    HOOT_TTS_BASE_URL: fake.url,
    HOOT_TTS_API_KEY: "sk-fake",
    ...extra,
  };
}

/** A loopback URL where nothing listens (a server was started there and stopped). */
export async function refusedUrl(): Promise<string> {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = server.port;
  await server.stop(true);
  return `http://127.0.0.1:${port}/v1`;
}

/** The question a utility call asks (the "Question:" or "What to extract:" line of its last message). */
export function askedQuestion(body: ChatBody): string {
  const text = body.messages.at(-1)?.content ?? "";
  return /(?:Question|What to extract): (.*)/.exec(text)?.[1] ?? "";
}

/** The latest message a utility call looks at. */
export function askedAbout(body: ChatBody): string {
  const text = body.messages.at(-1)?.content ?? "";
  const quoted = /The latest message, from the (?:child|character): (".*")/.exec(text)?.[1];
  return quoted ? (JSON.parse(quoted) as string) : "";
}

/**
 * A fake OpenAI-compatible server on loopback for utility tests. It speaks both kinds of request hoot sends
 * to /v1/chat/completions: streamed replies (SSE chunks, from `reply`) and the utilities' non-streamed side
 * calls (a chat.completion JSON, from `utility`, which sees the whole request body so a test can check what
 * it was asked and answer accordingly). Every request is recorded.
 */
import type { Server } from "bun";

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

/** What the fake does with a utility call: answer content, an HTTP status, or wait first. */
export type UtilityAnswer = { content: string; delayMs?: number } | { status: number; delayMs?: number };

export interface FakeOpenAi {
  url: string;
  /** Every request, in arrival order. */
  requests: ChatBody[];
  /** Utility side calls only. */
  utilityCalls(): ChatBody[];
  /** Streamed reply calls only. */
  replyCalls(): ChatBody[];
  stop(): Promise<void>;
}

export interface FakeOptions {
  /** Tokens of each streamed reply. */
  reply?: (body: ChatBody) => string[];
  /** The answer to a utility side call. */
  utility?: (body: ChatBody) => UtilityAnswer;
  /** Delay between reply tokens. */
  tokenDelayMs?: number;
}

const encoder = new TextEncoder();

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

/** Starts the fake; `stop()` it in afterAll. */
export function startFakeOpenAi(options: FakeOptions = {}): FakeOpenAi {
  const requests: ChatBody[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = (await req.json()) as ChatBody;
      requests.push(body);
      if (!body.stream) {
        const answer = options.utility?.(body) ?? { content: '{"answer": "no"}' };
        if (answer.delayMs) await Bun.sleep(answer.delayMs);
        if ("status" in answer)
          return Response.json({ error: { message: "fake failure for sk-secret-in-message", type: "server_error" } }, { status: answer.status });
        return Response.json({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created: 1,
          model: body.model ?? "fake",
          choices: [{ index: 0, message: { role: "assistant", content: answer.content }, finish_reason: "stop" }],
        });
      }
      const tokens = options.reply?.(body) ?? ["Hello", " there", "!"];
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          const chunk = (delta: Record<string, string>, finish: string | null = null) =>
            encoder.encode(
              `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "fake", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
            );
          try {
            controller.enqueue(chunk({ role: "assistant", content: "" }));
            for (const token of tokens) {
              if (options.tokenDelayMs) await Bun.sleep(options.tokenDelayMs);
              if (req.signal.aborted) return;
              controller.enqueue(chunk({ content: token }));
            }
            controller.enqueue(chunk({}, "stop"));
            controller.enqueue(encoder.encode("data: [DONE]\n\n"));
            controller.close();
          } catch {
            // the client went away
          }
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    utilityCalls: () => requests.filter((r) => !r.stream),
    replyCalls: () => requests.filter((r) => r.stream),
    stop: () => server.stop(true),
  };
}

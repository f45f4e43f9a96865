/**
 * A fake OpenAI-compatible server on loopback (Bun.serve, 127.0.0.1, port 0) that speaks real SSE
 * chat-completion chunks. Each request takes the next planned behaviour: stream tokens (optionally slowly, or
 * stalling after some tokens), delay before answering, or fail with an HTTP status. Records what it received.
 */
import type { Server } from "bun";

export type Behaviour =
  | { kind: "stream"; tokens: string[]; delayMs?: number; stallAfter?: number; headerDelayMs?: number }
  | { kind: "status"; status: number };

export interface ReceivedRequest {
  path: string;
  authorization: string | null;
  /** The client went away before the response ended. */
  aborted: boolean;
  body: { model?: string; temperature?: number; stream?: boolean; messages?: { role: string; content: string }[] };
}

export interface FakeOpenAiServer {
  url: string;
  requests: ReceivedRequest[];
  plan(...behaviours: Behaviour[]): void;
  stop(): Promise<void>;
}

const encoder = new TextEncoder();

function chunk(delta: Record<string, string>, finish: string | null = null): Uint8Array {
  const body = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1, model: "fake-model", choices: [{ index: 0, delta, finish_reason: finish }] };
  return encoder.encode(`data: ${JSON.stringify(body)}\n\n`);
}

/** Starts the fake; `stop()` it in afterAll. */
export function startFakeOpenAi(fallback: Behaviour = { kind: "stream", tokens: ["Hi", " there!"] }): FakeOpenAiServer {
  const planned: Behaviour[] = [];
  const requests: ReceivedRequest[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = (await req.json()) as ReceivedRequest["body"];
      const received: ReceivedRequest = { path: new URL(req.url).pathname, authorization: req.headers.get("authorization"), aborted: false, body };
      requests.push(received);
      const behaviour = planned.shift() ?? fallback;
      req.signal.addEventListener("abort", () => (received.aborted = true));
      if (behaviour.kind === "status") {
        return Response.json({ error: { message: "fake failure for sk-secret-in-message", type: "server_error" } }, { status: behaviour.status });
      }
      if (behaviour.headerDelayMs) await Bun.sleep(behaviour.headerDelayMs);
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
            if (behaviour.delayMs) await Bun.sleep(behaviour.delayMs);
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
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    plan: (...behaviours) => planned.push(...behaviours),
    stop: () => server.stop(true),
  };
}

/** A loopback URL where nothing listens (a server was started there and stopped). */
export async function refusedUrl(): Promise<string> {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = server.port;
  await server.stop(true);
  return `http://127.0.0.1:${port}/v1`;
}

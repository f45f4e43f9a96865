/**
 * One fake OpenAI-compatible server on loopback (Bun.serve, 127.0.0.1, port 0) for the safety wiring tests:
 * - POST /v1/chat/completions streams real SSE chunks, one planned reply per request (tokens split wherever
 *   the test likes, optionally slowly), and records the messages it was sent;
 * - POST /v1/audio/speech records the text it was asked to speak and answers silent 24 kHz PCM;
 * - POST /v1/moderations answers one planned behaviour per request (safe, flagged categories, a delay, or an
 *   HTTP status) and records what it was asked to judge.
 */
import type { Server } from "bun";

export interface ChatRequest {
  messages: { role: string; content: string }[];
  aborted: boolean;
}

export type ModerationBehaviour = { kind: "safe" } | { kind: "flag"; categories: string[] } | { kind: "slow"; ms: number } | { kind: "status"; status: number };

export interface FakeProviders {
  /** The base URL to give hoot (…/v1). */
  url: string;
  chats: ChatRequest[];
  /** Every sentence the speech endpoint was asked to say. */
  spoken: string[];
  /** Every text the moderation endpoint was asked to judge. */
  moderated: string[];
  /** The next chat replies, one token list each (the fallback reply is "Hello there! "). */
  reply(...tokenLists: string[][]): void;
  /** The next moderation answers (the fallback is safe). */
  moderate(...behaviours: ModerationBehaviour[]): void;
  /** Milliseconds between streamed tokens. */
  tokenDelayMs: number;
  stop(): Promise<void>;
}

const encoder = new TextEncoder();

function chunk(delta: Record<string, string>, finish: string | null = null): Uint8Array {
  const body = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1, model: "fake-model", choices: [{ index: 0, delta, finish_reason: finish }] };
  return encoder.encode(`data: ${JSON.stringify(body)}\n\n`);
}

/** Starts the fake; `stop()` it in afterAll. */
export function startFakeProviders(): FakeProviders {
  const replies: string[][] = [];
  const moderations: ModerationBehaviour[] = [];
  const state: FakeProviders = {
    url: "",
    chats: [],
    spoken: [],
    moderated: [],
    reply: (...lists) => void replies.push(...lists),
    moderate: (...behaviours) => void moderations.push(...behaviours),
    tokenDelayMs: 0,
    stop: async () => {},
  };
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const body = (await req.json()) as Record<string, unknown>;
      if (path.endsWith("/audio/speech")) {
        state.spoken.push(String(body.input));
        return new Response(new Uint8Array(4800), { headers: { "content-type": "audio/pcm" } });
      }
      if (path.endsWith("/moderations")) {
        state.moderated.push(String(body.input));
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
      const received: ChatRequest = { messages: (body.messages as ChatRequest["messages"]) ?? [], aborted: false };
      state.chats.push(received);
      req.signal.addEventListener("abort", () => (received.aborted = true));
      const tokens = replies.shift() ?? ["Hello", " there! "];
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
          for (const token of tokens) {
            if (state.tokenDelayMs) await Bun.sleep(state.tokenDelayMs);
            if (!send(chunk({ content: token }))) return;
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
  state.url = `http://127.0.0.1:${server.port}/v1`;
  state.stop = () => server.stop(true);
  return state;
}

/** Settings that point hoot's language model, speech and (optionally) moderation at the fake. */
export function fakeProviderEnv(fake: FakeProviders, extra: Record<string, string> = {}): Record<string, string> {
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

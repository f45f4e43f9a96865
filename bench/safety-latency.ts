/**
 * bun run bench:safety-latency — what holding text until its sentence passes costs in first-text latency.
 *
 * A fresh `hoot serve` process talks to a fake OpenAI-compatible model in this process that streams each
 * reply one word-token every BENCH_TOKEN_MS (25 ms, i.e. 40 tokens/s, a typical hosted model). The same
 * replies are asked for under two policies, interleaved turn by turn so machine noise hits both alike:
 *   - `children_strict` (the default): model output checked, text held until its unit of speech passes;
 *   - a team policy with `check_output: false`: the same rules on input, text streamed as it arrives.
 * Measured from sending `interact` to the first `text` event, text only. BENCH_TURNS (40) per policy.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../test/helpers/process.ts";
import { percentile, printTable } from "./load.ts";

const TOKEN_MS = Number(process.env.BENCH_TOKEN_MS ?? 25);
const TURNS = Number(process.env.BENCH_TURNS ?? 40);

/** Replies of the shapes a character gives: a short greeting, a first clause with a comma, a long first sentence. */
const REPLIES = [
  "Hello there! Would you like to hear a story about a brave little dragon?",
  "Oh, what a wonderful question, my friend! Dragons love pancakes more than anything.",
  "Once upon a time in a faraway forest there lived a tiny owl who could not sleep at night. She was very curious.",
  "Sure, let's count together: one, two, three, four and five!",
  "That sounds like a lot of fun. What colour would your spaceship be?",
];
const tokensOf = (text: string) => text.split(/(?=\s)/);

const encoder = new TextEncoder();
const chunk = (content: string) =>
  encoder.encode(
    `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 1, model: "fake", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`,
  );
// The child's message names the reply to stream ("reply 2"), so both policies get the same replies.
const fake = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const body = (await req.json()) as { messages: { role: string; content: string }[] };
    const asked = Number(/reply (\d+)/.exec(body.messages.at(-1)?.content ?? "")?.[1] ?? 0);
    const tokens = tokensOf(REPLIES[asked % REPLIES.length]!);
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        try {
          for (const token of tokens) {
            await Bun.sleep(TOKEN_MS);
            controller.enqueue(chunk(token));
          }
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

const dir = mkdtempSync(join(tmpdir(), "hoot-bench-safety-latency-"));
const server = await spawnServer(dir, {
  HOOT_LOG_LEVEL: "warn",
  HOOT_LLM_PROVIDER: "openai",
  HOOT_LLM_BASE_URL: `http://127.0.0.1:${fake.port}/v1`,
  HOOT_LLM_API_KEY: "sk-bench",
});

type Msg = Record<string, unknown>;

class Socket {
  private handlers = new Map<string, (m: Msg) => void>();
  constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as Msg;
      this.handlers.get(String(m.uid))?.(m);
    };
  }
  static open(url: string): Promise<Socket> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.onopen = () => resolve(new Socket(ws));
      ws.onerror = () => reject(new Error("open failed"));
    });
  }
  request(kind: string, fields: Msg): Promise<Msg> {
    const uid = crypto.randomUUID();
    return new Promise((resolve) => {
      this.handlers.set(uid, (m) => {
        this.handlers.delete(uid);
        resolve(m);
      });
      this.ws.send(JSON.stringify({ type: "request", kind, uid, ...fields }));
    });
  }
  /** ms to the first text event, and the whole reply. */
  turn(text: string): Promise<{ firstText: number; reply: string }> {
    const uid = crypto.randomUUID();
    const t0 = performance.now();
    let firstText = -1;
    let reply = "";
    return new Promise((resolve) => {
      this.handlers.set(uid, (m) => {
        if (m.event === "text" && firstText < 0) firstText = performance.now() - t0;
        if (m.event === "text_complete") reply = String(m.text);
        if (m.kind === "close") {
          this.handlers.delete(uid);
          resolve({ firstText, reply });
        }
      });
      this.ws.send(JSON.stringify({ type: "stream", kind: "interact", uid, text, context: {}, audio_output: false }));
    });
  }
}

try {
  const creds = JSON.parse(readFileSync(join(dir, "data/dev-credentials.json"), "utf8"));
  const json = { "content-type": "application/json" };
  const post = async (path: string, body: unknown, token?: string) =>
    (await (
      await fetch(`${server.url}${path}`, { method: "POST", headers: token ? { ...json, authorization: `Bearer ${token}` } : json, body: JSON.stringify(body) })
    ).json()) as Msg;
  const devToken = String((await post("/api/auth/login", { api_key: creds.developer_api_key })).access_token);
  await post("/api/safety-policies", { name: "unchecked_output", check_output: false }, devToken);
  const wsUrl = `${server.url.replace(/^http/, "ws")}/interact`;
  const open = async (policy: string) => {
    const player = await post("/api/players", { external_id: `bench-${policy}` }, devToken);
    const token = String((await post("/api/auth/login", { api_key: creds.service_account_api_key, federated_id: player.federated_id })).access_token);
    const s = await Socket.open(wsUrl);
    await s.request("authenticate", { access_token: token });
    await s.request("set_configuration", { config: { prompt: "You are Ollie the owl, a kind friend.", safety_policy: policy } });
    return s;
  };
  const checked = await open("children_strict");
  const unchecked = await open("unchecked_output");
  await checked.turn("reply 0");
  await unchecked.turn("reply 0");
  const times = { checked: [] as number[], unchecked: [] as number[] };
  const perShape = REPLIES.map(() => ({ checked: [] as number[], unchecked: [] as number[] }));
  for (let t = 0; t < TURNS; t++) {
    const shape = t % REPLIES.length;
    for (const [name, socket] of [
      ["checked", checked],
      ["unchecked", unchecked],
    ] as const) {
      const r = await socket.turn(`reply ${shape}`);
      if (r.reply !== REPLIES[shape]) throw new Error(`the reply changed under ${name}: ${r.reply}`);
      times[name].push(r.firstText);
      perShape[shape]![name].push(r.firstText);
    }
  }
  checked.ws.close();
  unchecked.ws.close();

  console.log(
    `\nhoot safety latency benchmark: first text with and without output checks, model at one token per ${TOKEN_MS} ms, ${navigator.hardwareConcurrency} cores\n`,
  );
  printTable([
    { measure: "first text, output checked (children_strict)", p50: percentile(times.checked, 0.5), p99: percentile(times.checked, 0.99), unit: "ms" },
    {
      measure: "first text, output not checked (check_output: false)",
      p50: percentile(times.unchecked, 0.5),
      p99: percentile(times.unchecked, 0.99),
      unit: "ms",
    },
    { measure: "cost of holding text (p50 difference)", p50: percentile(times.checked, 0.5) - percentile(times.unchecked, 0.5), p99: "", unit: "ms" },
  ]);
  console.log("");
  printTable(
    REPLIES.map((reply, i) => ({
      "reply starts": `${reply.slice(0, 36)}...`,
      "checked p50": percentile(perShape[i]!.checked, 0.5),
      "unchecked p50": percentile(perShape[i]!.unchecked, 0.5),
      "held (ms)": percentile(perShape[i]!.checked, 0.5) - percentile(perShape[i]!.unchecked, 0.5),
    })),
  );
} finally {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  await fake.stop(true);
  rmSync(dir, { recursive: true, force: true });
}

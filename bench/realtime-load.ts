/**
 * The load generator of `bun run bench:realtime` for the /v1/realtime side, run as its own process (pinned by
 * bench/realtime.ts to a core other than the server's). The /interact side of the same run is
 * bench/interact-load.ts's `turns` mode.
 *   bun bench/realtime-load.ts <config.json>
 * Every token gets a /v1/realtime socket (bearer header; session.created, then a session.update to text and
 * the benchmark's prompt, one warm-up turn), then every socket runs `turns` turns one after another, all
 * sockets at once: conversation.item.create and response.create sent together, timed from response.create to
 * the first response.output_text.delta and to response.done (-1 for a turn without a delta).
 * The result is one JSON line on stdout: {"event":"done","firstText":[...],"close":[...]}.
 */
import { readFileSync } from "node:fs";

type Event = Record<string, unknown>;

export interface RealtimeLoadConfig {
  url: string;
  tokens: string[];
  turns: number;
  instructions: string;
  prompts: string[];
}

// Bun's WebSocket takes upgrade headers; the DOM typing only knows protocols.
const BunWebSocket = WebSocket as unknown as new (url: string, options: import("bun").WebSocketOptions) => WebSocket;

class Socket {
  private waiting: ((e: Event) => void) | null = null;
  constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => this.waiting?.(JSON.parse(String(e.data)) as Event);
  }

  static async open(url: string, token: string, instructions: string): Promise<Socket> {
    const ws = new BunWebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
    const socket = new Socket(ws);
    const created = socket.until("session.created");
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("open failed"));
    });
    await created;
    const updated = socket.until("session.updated");
    ws.send(JSON.stringify({ type: "session.update", session: { type: "realtime", output_modalities: ["text"], instructions } }));
    await updated;
    return socket;
  }

  /** Resolves with the next event of `type`; an error event rejects. */
  until(type: string): Promise<Event> {
    return new Promise((resolve, reject) => {
      this.waiting = (e) => {
        if (e.type === "error") reject(new Error(JSON.stringify(e).slice(0, 300)));
        if (e.type === type) resolve(e);
      };
    });
  }

  turn(text: string): Promise<{ firstText: number; close: number }> {
    let firstText = -1;
    let t0 = 0;
    const done = new Promise<{ firstText: number; close: number }>((resolve) => {
      this.waiting = (e) => {
        if (e.type === "response.output_text.delta" && firstText < 0) firstText = performance.now() - t0;
        if (e.type === "response.done") resolve({ firstText, close: performance.now() - t0 });
      };
    });
    this.ws.send(JSON.stringify({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text }] } }));
    t0 = performance.now();
    this.ws.send(JSON.stringify({ type: "response.create" }));
    return done;
  }
}

async function run(c: RealtimeLoadConfig) {
  const sockets = await Promise.all(c.tokens.map((token) => Socket.open(c.url, token, c.instructions)));
  await Promise.all(sockets.map((s) => s.turn("warm up")));
  const firstText: number[] = [];
  const close: number[] = [];
  await Promise.all(
    sockets.map(async (s, i) => {
      for (let t = 0; t < c.turns; t++) {
        const r = await s.turn(c.prompts[(i + t) % c.prompts.length]!);
        firstText.push(r.firstText);
        close.push(r.close);
      }
    }),
  );
  for (const s of sockets) s.ws.close();
  return { sessions: sockets.length, firstText, close };
}

if (import.meta.main) {
  const config = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as RealtimeLoadConfig;
  console.log(JSON.stringify({ event: "done", ...(await run(config)) }));
  process.exit(0);
}

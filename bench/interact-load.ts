/**
 * The load generator of `bun run bench:interact`, run as its own process (pinned by bench/interact.ts to a core
 * other than the server's), so the clients' JSON parsing and timers do not share the server's core.
 *   bun bench/interact-load.ts <config.json>
 * Modes (config.mode):
 *   turns  every token gets a socket (authenticate, set_configuration, one warm-up turn), then every socket runs
 *          `turns` interacts one after another, all sockets at once: interact -> first `text` and -> `close`
 *          (ms per turn; -1 for a turn that closed without text)
 *   echo   `sessions` sockets to a bare echo server, each sending `turns` interact-sized messages one after
 *          another, all at once: round trips (ms) — the floor the `turns` figures are compared with
 *   idle   opens authenticated, configured sockets up to each count in `steps`; after each step it prints
 *          {"event":"opened",…} and waits for a line on stdin (the parent measures the server meanwhile);
 *          after the last step's line it closes everything and exits
 * Results are JSON lines on stdout; progress and errors go to stderr.
 */
import { readFileSync } from "node:fs";
import { percentile } from "./load.ts";

type Msg = Record<string, unknown>;

export type LoadConfig =
  | { mode: "turns"; url: string; tokens: string[]; turns: number; config: Msg; prompts: string[]; thinkMs?: [number, number] }
  | { mode: "echo"; url: string; sessions: number; turns: number; thinkMs?: [number, number] }
  | { mode: "idle"; url: string; tokens: string[]; steps: number[]; config: Msg; batch: number };

/** Latency summary a mode prints (ms). */
export interface Latencies {
  count: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

/** A minimal protocol client: resolves requests by uid and lets a turn wait for its first text and its close. */
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
      ws.onclose = (e) => reject(new Error(`closed ${e.code} before open`));
    });
  }
  request(kind: string, fields: Msg): Promise<Msg> {
    const uid = crypto.randomUUID();
    return new Promise((resolve, reject) => {
      this.ws.onclose = (e) => reject(new Error(`socket closed ${e.code} ${e.reason}`));
      this.handlers.set(uid, (m) => {
        this.handlers.delete(uid);
        if (m.kind === "error" || m.error !== undefined) reject(new Error(`${kind} refused: ${JSON.stringify(m).slice(0, 200)}`));
        else resolve(m);
      });
      this.ws.send(JSON.stringify({ type: "request", kind, uid, ...fields }));
    });
  }
  /** One interact; firstText is -1 when the turn closed without text (an error). */
  turn(text: string): Promise<{ firstText: number; close: number }> {
    const uid = crypto.randomUUID();
    const t0 = performance.now();
    let firstText = -1;
    return new Promise((resolve) => {
      this.handlers.set(uid, (m) => {
        if (m.event === "text" && firstText < 0) firstText = performance.now() - t0;
        if (m.kind === "close") {
          this.handlers.delete(uid);
          resolve({ firstText, close: performance.now() - t0 });
        }
      });
      this.ws.send(JSON.stringify({ type: "stream", kind: "interact", uid, text, context: { player_name: "Mia" }, audio_output: false }));
    });
  }
}

/** p50/p99/max of `values`, ignoring negative ones (failures), which are counted instead. */
export function summarize(values: number[]): Latencies {
  const ok = values.filter((v) => v >= 0);
  return { count: ok.length, failed: values.length - ok.length, p50: percentile(ok, 0.5), p99: percentile(ok, 0.99), max: Math.max(0, ...ok) };
}

async function ready(url: string, token: string, config: Msg): Promise<Socket> {
  const s = await Socket.open(url);
  await s.request("authenticate", { access_token: token });
  await s.request("set_configuration", { config });
  return s;
}

/** A pause drawn evenly from `range` (ms), or none: a child reading the reply before typing again. */
const think = (range: [number, number] | undefined) => (range ? Bun.sleep(range[0] + Math.random() * (range[1] - range[0])) : Promise.resolve());

async function turns(c: Extract<LoadConfig, { mode: "turns" }>) {
  const sockets = await Promise.all(c.tokens.map((token) => ready(c.url, token, c.config)));
  await Promise.all(sockets.map((s) => s.turn("warm up")));
  const firstTexts: number[] = [];
  const closes: number[] = [];
  await Promise.all(
    sockets.map(async (s, i) => {
      for (let t = 0; t < c.turns; t++) {
        await think(c.thinkMs);
        const r = await s.turn(c.prompts[(i + t) % c.prompts.length]!);
        firstTexts.push(r.firstText);
        closes.push(r.close);
      }
    }),
  );
  for (const s of sockets) s.ws.close();
  return { sessions: sockets.length, firstText: firstTexts, close: closes };
}

async function echo(c: Extract<LoadConfig, { mode: "echo" }>) {
  // The same size as an interact request, so the frame work matches.
  const sample = JSON.stringify({
    type: "stream",
    kind: "interact",
    uid: crypto.randomUUID(),
    text: "Tell me a story about a dragon",
    context: { player_name: "Mia" },
    audio_output: false,
  });
  const sockets = await Promise.all(Array.from({ length: c.sessions }, () => Socket.open(c.url)));
  const roundTrip = (s: Socket) =>
    new Promise<number>((resolve) => {
      const t0 = performance.now();
      s.ws.onmessage = () => resolve(performance.now() - t0);
      s.ws.send(sample);
    });
  for (const s of sockets) await roundTrip(s); // warm-up
  const rtts: number[] = [];
  await Promise.all(
    sockets.map(async (s) => {
      for (let t = 0; t < c.turns; t++) {
        await think(c.thinkMs);
        rtts.push(await roundTrip(s));
      }
    }),
  );
  for (const s of sockets) s.ws.close();
  return { sessions: sockets.length, roundTrip: rtts };
}

async function idle(c: Extract<LoadConfig, { mode: "idle" }>) {
  const sockets: Socket[] = [];
  let failed = 0;
  let firstError = "";
  const lines = stdinLines();
  for (const target of c.steps) {
    const started = performance.now();
    while (sockets.length + failed < target) {
      const n = Math.min(c.batch, target - sockets.length - failed);
      const base = sockets.length + failed;
      const opened = await Promise.allSettled(Array.from({ length: n }, (_, j) => ready(c.url, c.tokens[(base + j) % c.tokens.length]!, c.config)));
      for (const r of opened) {
        if (r.status === "fulfilled") sockets.push(r.value);
        else {
          failed++;
          firstError ||= String(r.reason);
        }
      }
    }
    console.log(JSON.stringify({ event: "opened", count: sockets.length, failed, firstError, seconds: (performance.now() - started) / 1000 }));
    await lines.next();
  }
  for (const s of sockets) s.ws.close();
  return { closed: sockets.length };
}

async function* stdinLines(): AsyncGenerator<string> {
  let buffer = "";
  for await (const chunk of Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>) {
    buffer += new TextDecoder().decode(chunk);
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
    }
  }
}

if (import.meta.main) {
  const config = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as LoadConfig;
  const result = config.mode === "turns" ? await turns(config) : config.mode === "echo" ? await echo(config) : await idle(config);
  console.log(JSON.stringify({ event: "done", ...result }));
  process.exit(0);
}

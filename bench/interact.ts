/**
 * bun run bench:interact — the interact socket under load, with the local language model at full speed
 * (HOOT_LOCAL_TOKENS_PER_SECOND=0), text only. The server runs in its own process; this process is the load.
 *   1. BENCH_PLAYERS (100) players, each on its own socket doing BENCH_TURNS (5) turns one after another, all at
 *      once: p50/p99 of interact -> first `text` and interact -> `close`.
 *   2. BENCH_IDLE (10000) idle authenticated sockets: server RSS growth per session.
 * Targets: first text p50 <= 2 ms and p99 <= 10 ms at 100 sessions; 10,000 sessions at <= 8 KB each.
 * The pipeline's own overhead over a provider's first token is measured by `bun run bench:engine`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { percentile, printTable } from "./load.ts";
import { spawnServer } from "../test/helpers/process.ts";

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100);
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const IDLE = Number(process.env.BENCH_IDLE ?? 10_000);

const dir = mkdtempSync(join(tmpdir(), "hoot-bench-interact-"));
const server = await spawnServer(dir, {
  HOOT_LOG_LEVEL: "warn",
  HOOT_LOCAL_TOKENS_PER_SECOND: "0",
  HOOT_WS_MAX_SOCKETS_PER_PLAYER: "10000",
  HOOT_WS_MAX_SOCKETS: "100000",
  HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS: "100000",
  HOOT_LOGIN_FAILURES_PER_MINUTE: "100000",
});

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}

type Msg = Record<string, unknown>;

/** A minimal socket: resolves requests by uid and lets a turn wait for its first text and its close. */
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

try {
  const creds = JSON.parse(readFileSync(join(dir, "data/dev-credentials.json"), "utf8"));
  const json = { "content-type": "application/json" };
  const post = async (path: string, body: unknown, token?: string) =>
    (await (await fetch(`${server.url}${path}`, { method: "POST", headers: token ? { ...json, authorization: `Bearer ${token}` } : json, body: JSON.stringify(body) })).json()) as Msg;
  const devToken = String((await post("/api/auth/login", { api_key: creds.developer_api_key })).access_token);
  const tokens: string[] = [];
  for (let i = 0; i < PLAYERS; i++) {
    const player = await post("/api/players", { external_id: `bench-${i}` }, devToken);
    tokens.push(String((await post("/api/auth/login", { api_key: creds.service_account_api_key, federated_id: player.federated_id })).access_token));
  }
  const wsUrl = `${server.url.replace(/^http/, "ws")}/interact`;
  const config = { prompt: "You are Ollie the owl, a kind friend." };
  const prompts = ["Hello!", "Tell me a story about a dragon", "What is 3 plus 4?", "I feel sad today", "."];

  // 1. active sessions
  const sockets = await Promise.all(tokens.map(async (token) => {
    const s = await Socket.open(wsUrl);
    await s.request("authenticate", { access_token: token });
    await s.request("set_configuration", { config });
    return s;
  }));
  await Promise.all(sockets.map((s) => s.turn("warm up")));
  const firstTexts: number[] = [];
  const closes: number[] = [];
  await Promise.all(sockets.map(async (s, i) => {
    for (let t = 0; t < TURNS; t++) {
      const r = await s.turn(prompts[(i + t) % prompts.length]!);
      firstTexts.push(r.firstText);
      closes.push(r.close);
    }
  }));
  for (const s of sockets) s.ws.close();

  // First text for a single session alone, as the baseline the concurrent figures are compared with.
  const solo = await Socket.open(wsUrl);
  await solo.request("authenticate", { access_token: tokens[0]! });
  await solo.request("set_configuration", { config });
  const soloFirst: number[] = [];
  for (let t = 0; t < 50; t++) soloFirst.push((await solo.turn(prompts[t % prompts.length]!)).firstText);
  solo.ws.close();
  await Bun.sleep(300);

  // 2. idle sessions
  Bun.gc(true);
  await Bun.sleep(300);
  const before = rssKb(server.proc.pid);
  const idle: Socket[] = [];
  const batch = 500;
  for (let i = 0; i < IDLE; i += batch) {
    idle.push(...(await Promise.all(Array.from({ length: Math.min(batch, IDLE - i) }, async (_, j) => {
      const s = await Socket.open(wsUrl);
      await s.request("authenticate", { access_token: tokens[(i + j) % tokens.length]! });
      return s;
    }))));
  }
  await Bun.sleep(1000);
  const after = rssKb(server.proc.pid);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const live = Number(/^hoot_ws_sessions (\d+)/m.exec(metrics)?.[1] ?? -1);
  for (const s of idle) s.ws.close();

  console.log(`\nhoot interact benchmark: local engine at full speed, text only, ${navigator.hardwareConcurrency} cores\n`);
  printTable([
    { measure: "interact -> first text, 1 session", p50: percentile(soloFirst, 0.5), p99: percentile(soloFirst, 0.99), unit: "ms", target: "" },
    { measure: `interact -> first text, ${PLAYERS} sessions`, p50: percentile(firstTexts, 0.5), p99: percentile(firstTexts, 0.99), unit: "ms", target: "p50 <= 2, p99 <= 10" },
    { measure: `interact -> close, ${PLAYERS} sessions`, p50: percentile(closes, 0.5), p99: percentile(closes, 0.99), unit: "ms", target: "" },
  ]);
  console.log("");
  printTable([
    { measure: "idle authenticated sessions held", value: live, target: String(IDLE) },
    { measure: "server RSS before (MB)", value: before / 1024, target: "" },
    { measure: "server RSS with sessions (MB)", value: after / 1024, target: "" },
    { measure: "RSS per session (KB)", value: (after - before) / Math.max(1, live), target: "<= 8" },
  ]);
} finally {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  rmSync(dir, { recursive: true, force: true });
}

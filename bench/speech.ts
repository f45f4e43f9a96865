/**
 * bun run bench:speech — speech, in one run:
 *   1. the offline engine's real-time factor alone (synthesis time / audio duration, one request at a time,
 *      through a worker, MP3), and its raw concurrent limit: workers / RTF;
 *   2. interact -> first `audio` event, p50/p99, with the local language model at full speed;
 *   3. the largest number of sessions talking at once whose audio still arrives faster than it plays: each
 *      session asks for a story at the same moment and plays its audio in real time from the first chunk; it
 *      falls behind if a chunk arrives after the previous ones have finished playing (BENCH_SLACK_MS grace).
 * Targets: first audio p50 <= 60 ms; >= 50 real-time sessions on 2 cores, >= 60% of the raw limit.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { LocalSpeechProvider } from "../src/engine/tts/index.ts";
import { splitFrames } from "../src/engine/tts/audio/mp3-frames.ts";
import { percentile, printTable } from "./load.ts";
import { spawnServer } from "../test/helpers/process.ts";

const WORKERS = Number(process.env.HOOT_TTS_WORKERS ?? navigator.hardwareConcurrency);
const SLACK_MS = Number(process.env.BENCH_SLACK_MS ?? 100);
const FIRST_AUDIO_TURNS = Number(process.env.BENCH_TURNS ?? 40);
const SENTENCES = [
  "Hi there!",
  "Owls can turn their heads almost all the way around.",
  "Once upon a time, a little owl named Hoot lived in a tall oak tree at the edge of the forest.",
  "That's right, three plus four makes seven, well done!",
  "The moon looks different every night because we see different parts of it lit by the sun.",
];

const mp3Seconds = (bytes: Uint8Array) => splitFrames(bytes).reduce((s, f) => s + f.header.samples / f.header.sampleRate, 0);

// 1. engine alone
const provider = new LocalSpeechProvider({ ...loadConfig({}), ttsWorkers: 1 }, { info() {}, warn() {}, error() {}, debug() {} } as never);
for (const text of SENTENCES) for await (const _ of provider.synthesize({ text, voice: {}, format: "mp3", signal: new AbortController().signal }));
let synthMs = 0;
let audioS = 0;
for (let round = 0; round < 3; round++) {
  for (const text of SENTENCES) {
    const t0 = performance.now();
    for await (const chunk of provider.synthesize({ text, voice: {}, format: "mp3", signal: new AbortController().signal })) audioS += mp3Seconds(chunk.data);
    synthMs += performance.now() - t0;
  }
}
await provider.close();
const rtf = synthMs / 1000 / audioS;
const rawLimit = WORKERS / rtf;

// 2 and 3 against a real server
const dir = mkdtempSync(join(tmpdir(), "hoot-bench-speech-"));
const server = await spawnServer(dir, {
  HOOT_LOG_LEVEL: "warn",
  HOOT_LOCAL_TOKENS_PER_SECOND: "0",
  HOOT_TTS_WORKERS: String(WORKERS),
  HOOT_WS_MAX_SOCKETS_PER_PLAYER: "10000",
  HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS: "100000",
  HOOT_LOGIN_FAILURES_PER_MINUTE: "100000",
});
type Msg = Record<string, any>;
const wsUrl = `${server.url.replace(/^http/, "ws")}/interact`;
const creds = JSON.parse(readFileSync(join(dir, "data/dev-credentials.json"), "utf8"));
const post = async (path: string, body: unknown, token?: string) =>
  (await (await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) })).json()) as Msg;
const devToken = (await post("/api/auth/login", { api_key: creds.developer_api_key })).access_token;
const player = await post("/api/players", { external_id: "bench" }, devToken);
const playerToken = async () => (await post("/api/auth/login", { api_key: creds.service_account_api_key, federated_id: player.federated_id })).access_token as string;

async function session(): Promise<{ ws: WebSocket; turn(text: string): Promise<{ firstAudio: number; chunks: { at: number; seconds: number }[] }> }> {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve) => (ws.onopen = resolve));
  const handlers = new Map<string, (m: Msg) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data)) as Msg;
    handlers.get(m.uid)?.(m);
  };
  const request = (kind: string, fields: Msg) =>
    new Promise<Msg>((resolve) => {
      const uid = crypto.randomUUID();
      handlers.set(uid, resolve);
      ws.send(JSON.stringify({ type: "request", kind, uid, ...fields }));
    });
  await request("authenticate", { access_token: await playerToken() });
  await request("set_configuration", { config: { prompt: "You are Ollie the owl, a kind friend." } });
  return {
    ws,
    turn: (text) =>
      new Promise((resolve) => {
        const uid = crypto.randomUUID();
        const t0 = performance.now();
        const chunks: { at: number; seconds: number }[] = [];
        handlers.set(uid, (m) => {
          if (m.event === "audio") chunks.push({ at: performance.now() - t0, seconds: mp3Seconds(new Uint8Array(Buffer.from(m.audio, "base64"))) });
          if (m.kind === "close") resolve({ firstAudio: chunks[0]?.at ?? -1, chunks });
        });
        ws.send(JSON.stringify({ type: "stream", kind: "interact", uid, text, context: {}, audio_output: true }));
      }),
  };
}

/** True when every chunk arrives before the audio before it has finished playing. */
function keepsUp(chunks: { at: number; seconds: number }[]): boolean {
  if (chunks.length === 0) return false;
  let playedUntil = chunks[0]!.at;
  for (const c of chunks) {
    if (c.at > playedUntil + SLACK_MS) return false;
    playedUntil = Math.max(playedUntil, c.at) + c.seconds * 1000;
  }
  return true;
}

try {
  const one = await session();
  const prompts = ["Hello!", "What is 3 plus 4?", "I like cats", "Why is the sky blue?", "."];
  await one.turn("warm up");
  const firstAudio: number[] = [];
  for (let i = 0; i < FIRST_AUDIO_TURNS; i++) firstAudio.push((await one.turn(prompts[i % prompts.length]!)).firstAudio);
  one.ws.close();

  const tries: { sessions: number; keptUp: number; audioSeconds: number; wallSeconds: number }[] = [];
  const attempt = async (n: number) => {
    const sessions = await Promise.all(Array.from({ length: n }, () => session()));
    const t0 = performance.now();
    const results = await Promise.all(sessions.map((s, i) => s.turn(`Tell me a story about ${["a dragon", "space", "the sea", "a robot"][i % 4]}`)));
    const wall = (performance.now() - t0) / 1000;
    for (const s of sessions) s.ws.close();
    const keptUp = results.filter((r) => keepsUp(r.chunks)).length;
    const audio = results.reduce((sum, r) => sum + r.chunks.reduce((a, c) => a + c.seconds, 0), 0);
    tries.push({ sessions: n, keptUp, audioSeconds: audio, wallSeconds: wall });
    return keptUp === n;
  };
  // Grow until some session falls behind, then bisect between the last good and the first bad count.
  let good = 0;
  let bad = 0;
  for (let n = 10; n <= 400; n = Math.ceil(n * 1.5)) {
    if (await attempt(n)) good = n;
    else {
      bad = n;
      break;
    }
  }
  while (bad && bad - good > Math.max(2, good * 0.1)) {
    const mid = Math.floor((good + bad) / 2);
    if (await attempt(mid)) good = mid;
    else bad = mid;
  }

  console.log(`\nhoot speech benchmark: ${WORKERS} workers, ${navigator.hardwareConcurrency} cores, MP3\n`);
  printTable([
    { measure: "engine real-time factor (synthesis / audio)", value: rtf, target: "" },
    { measure: "engine raw limit: workers / RTF (sessions)", value: rawLimit, target: "" },
    { measure: "interact -> first audio p50 (ms)", value: percentile(firstAudio, 0.5), target: "<= 60" },
    { measure: "interact -> first audio p99 (ms)", value: percentile(firstAudio, 0.99), target: "" },
    { measure: "real-time sessions (none falls behind)", value: good, target: ">= 50" },
    { measure: "real-time sessions / raw limit", value: `${((good / rawLimit) * 100).toFixed(0)}%`, target: ">= 60%" },
  ]);
  console.log("\nattempts:");
  printTable(tries.map((t) => ({ sessions: t.sessions, "kept up": t.keptUp, "audio s": t.audioSeconds, "wall s": t.wallSeconds })));
} finally {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  rmSync(dir, { recursive: true, force: true });
}

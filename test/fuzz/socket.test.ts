/**
 * Property: whatever a client sends on the interact websocket (valid requests with hostile values, unknown
 * kinds, broken JSON, deep nesting, binary frames, before or after authenticating), hoot never fails
 * internally; every error it sends carries `error` and `code` and repeats nothing the client sent (beyond
 * the `uid` and `client_start_time` the protocol echoes); it closes only with the documented codes; and
 * /api/health keeps answering quickly throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import fc from "fast-check";
import { createPlayer, createTeamFixture, startTestServer, type TestServer } from "../helpers/server.ts";
import { deepJson, fuzzRuns, hostileString, leaksInternals, MARKER, watchHealth } from "./helpers.ts";

let server: TestServer;
let playerToken: string;

beforeAll(async () => {
  server = await startTestServer({ HOOT_LOG_LEVEL: "warn", HOOT_WS_MAX_MESSAGE_BYTES: "16384", HOOT_WS_AUTH_TIMEOUT_MS: "2000" });
  const team = await createTeamFixture(server);
  playerToken = (await createPlayer(server, team)).token;
});
afterAll(() => server.close());

const DOCUMENTED_CLOSES = new Set([1000, 1001, 1005, 1008, 1009, 1013, 4401, 4403, 4429]);
const KINDS = [
  "authenticate",
  "ping",
  "set_configuration",
  "merge_configuration",
  "get_configuration",
  "interrupt",
  "interact",
  "close",
  "error",
  "add_audio",
  "render_prompt",
  "get_available_models",
  "set_service_profile",
];

const value = fc.oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }));

const config = fc.record(
  {
    prompt: fc.oneof(hostileString, fc.constant("You are Ollie the owl. The child is {{name}}. Tell me about the constructor.")),
    temperature: fc.oneof(fc.double({ min: -1, max: 3 }), value),
    safety_policy: fc.oneof(fc.constantFrom("children_strict", "default", "", "__proto__"), value),
    voice_profile: fc.oneof(fc.record({ voice_id: hostileString, speed: fc.double(), pitch: fc.double() }, { requiredKeys: [] }), value),
    utilities: fc.oneof(fc.dictionary(hostileString, fc.constant(null), { maxKeys: 2 }), value),
    audio_format: fc.oneof(fc.constantFrom("mp3", "pcm16"), value),
    language_code: fc.oneof(fc.constantFrom("en", "en-US"), value),
    __proto__: value,
    constructor: value,
  },
  { requiredKeys: [] },
);

const message = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          type: fc.oneof(fc.constantFrom("request", "stream"), value),
          kind: fc.oneof(fc.constantFrom(...KINDS), hostileString),
          uid: fc.oneof(fc.uuid(), hostileString),
          client_start_time: fc.oneof(fc.constant(new Date().toISOString()), hostileString),
          access_token: fc.oneof(fc.constant("PLAYER_TOKEN"), hostileString),
          config,
          text: fc.oneof(fc.constantFrom(".", "hello", "What is 7 plus 5?"), hostileString),
          context: fc.oneof(fc.dictionary(hostileString, fc.oneof(hostileString, fc.integer(), fc.boolean()), { maxKeys: 3 }), value),
          audio_output: fc.constant(false),
          target_uid: fc.oneof(fc.uuid(), hostileString),
          at_character: value,
        },
        { requiredKeys: ["type", "kind", "uid"] },
      )
      .map((m) => JSON.stringify(m).replace('"PLAYER_TOKEN"', JSON.stringify(playerToken))),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
);

// Half the cases start authenticated and configured, so the fuzzer reaches past the front door.
const session = fc.record({ prepared: fc.boolean(), messages: fc.array(message, { minLength: 1, maxLength: 6 }) });

interface Outcome {
  received: string[];
  closeCode: number | null;
}

async function play(prepared: boolean, messages: (string | Uint8Array)[]): Promise<Outcome> {
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/interact`);
  const received: string[] = [];
  let closeCode: number | null = null;
  let lastActivity = performance.now();
  ws.onmessage = (e) => {
    received.push(String(e.data));
    lastActivity = performance.now();
  };
  const closed = new Promise<void>((resolve) => {
    ws.onclose = (e) => {
      closeCode = e.code;
      resolve();
    };
  });
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error("websocket failed to open"));
  });
  if (prepared) {
    ws.send(JSON.stringify({ type: "request", kind: "authenticate", uid: "a", access_token: playerToken }));
    ws.send(JSON.stringify({ type: "request", kind: "set_configuration", uid: "c", config: { prompt: "You are Ollie the owl." } }));
  }
  for (const m of messages) {
    if (closeCode !== null) break;
    ws.send(m);
  }
  // Messages are answered in order: once a final ping is answered, everything before it has been handled.
  // A turn still streaming in the background then gets a moment of quiet to finish.
  const sentinel = `sentinel-${crypto.randomUUID()}`;
  if (closeCode === null) ws.send(JSON.stringify({ type: "request", kind: "ping", uid: sentinel }));
  const deadline = performance.now() + 5000;
  const answered = () => received.some((r) => r.includes(sentinel));
  while (closeCode === null && performance.now() < deadline && !(answered() && performance.now() - lastActivity > 10)) await Bun.sleep(5);
  if (closeCode === null) {
    ws.close(1000);
    await Promise.race([closed, Bun.sleep(1000)]);
  }
  return { received, closeCode };
}

function check(outcome: Outcome): string | null {
  if (outcome.closeCode !== null && !DOCUMENTED_CLOSES.has(outcome.closeCode)) return `closed with undocumented code ${outcome.closeCode}`;
  for (const text of outcome.received) {
    const leak = leaksInternals(text);
    if (leak) return leak;
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return `not JSON: ${text.slice(0, 200)}`;
    }
    if (!["response", "stream", "error"].includes(String(m.type))) return `unknown message type: ${text.slice(0, 200)}`;
    const isError = m.type === "error" || m.kind === "error" || m.event === "interaction_error";
    if (!isError) continue;
    if (typeof m.error !== "string" || typeof m.code !== "string") return `error without error and code: ${text.slice(0, 200)}`;
    if (m.code === "internal") return `internal error: ${text.slice(0, 200)}`;
    const { uid: _uid, client_start_time: _time, ...rest } = m;
    if (JSON.stringify(rest).includes(MARKER)) return `error repeats the input: ${text.slice(0, 300)}`;
  }
  return null;
}

describe("interact websocket under fuzzing", () => {
  it("never fails internally, answers errors with error and code, echoes nothing, closes only with documented codes", async () => {
    const health = watchHealth(server.url);
    try {
      await fc.assert(
        fc.asyncProperty(session, async ({ prepared, messages }) => {
          const outcome = await play(prepared, messages);
          expect(check(outcome)).toBeNull();
        }),
        { numRuns: fuzzRuns(400), endOnFailure: true },
      );
    } finally {
      const { slowestMs, failures } = await health.stop();
      expect(failures).toBe(0);
      expect(slowestMs).toBeLessThan(2000);
    }
    const internal = server.logs.filter((l) => l.includes('"ws_handler_error"') || l.includes('"unhandled_error"'));
    expect(internal).toEqual([]);
  }, 300_000);
});

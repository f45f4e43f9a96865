/**
 * /metrics shows what the turns did: real turns through the real server (local model, local speech engine)
 * move the turn histograms and the outcome counters; a failing model and an interrupted turn are counted
 * under their own outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

/** The value of the sample `name{labels}` in a Prometheus text exposition (0 when absent). */
function sample(text: string, name: string, labels = ""): number {
  const line = text.split("\n").find((l) => l.startsWith(labels ? `${name}{${labels}} ` : `${name} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

async function scrape(server: TestServer): Promise<string> {
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  server = await startTestServer({ HOOT_TTS_WORKERS: "1" });
  team = await createTeamFixture(server);
});
afterAll(() => server.close());

describe("turn metrics", () => {
  it("lists every turn metric, and every outcome at 0, before any turn", async () => {
    const text = await scrape(server);
    for (const name of [
      "hoot_turn_first_text_seconds",
      "hoot_turn_first_audio_seconds",
      "hoot_llm_first_token_seconds",
      "hoot_speech_queue_wait_seconds",
      "hoot_speech_synthesis_seconds",
    ]) {
      expect(text).toContain(`# TYPE ${name} histogram`);
    }
    for (const outcome of ["complete", "interrupted", "llm_timeout", "llm_unavailable", "tts_failed", "engine_error"]) {
      expect(text).toContain(`hoot_turns_total{outcome="${outcome}"}`);
    }
    // The process metrics are there too (started after listening, at the latest on the first scrape).
    expect(text).toContain("process_cpu_seconds_total");
  });

  it("moves after a real spoken turn: first text, first audio, first token, speech queue and synthesis, and the complete count", async () => {
    const before = await scrape(server);
    const player = await createPlayer(server, team);
    const probe = await openSession(server.url, player.token);
    const { events } = await probe.interact("Tell me about the moon", { audio_output: true }, 30_000);
    probe.close();
    expect(events.some((e) => e.event === "audio")).toBe(true);
    expect(events.some((e) => e.event === "interaction_complete")).toBe(true);
    const after = await scrape(server);
    const grew = (name: string, labels = "") => sample(after, name, labels) - sample(before, name, labels);

    expect(grew("hoot_turns_total", 'outcome="complete"')).toBe(1);
    expect(grew("hoot_turn_first_text_seconds_count")).toBe(1);
    expect(grew("hoot_turn_first_audio_seconds_count")).toBe(1);
    expect(grew("hoot_llm_first_token_seconds_count")).toBe(1);
    expect(grew("hoot_speech_admissions_total", 'result="admitted"')).toBe(1);
    // One observation per sentence synthesized; at least the first.
    expect(grew("hoot_speech_queue_wait_seconds_count")).toBeGreaterThanOrEqual(1);
    expect(grew("hoot_speech_synthesis_seconds_count")).toBeGreaterThanOrEqual(1);
    // The times are real durations: positive, and first text before first audio.
    expect(grew("hoot_turn_first_text_seconds_sum")).toBeGreaterThan(0);
    expect(grew("hoot_speech_synthesis_seconds_sum")).toBeGreaterThan(0);
    expect(grew("hoot_turn_first_audio_seconds_sum")).toBeGreaterThan(grew("hoot_turn_first_text_seconds_sum"));
    // Text-only turns leave the audio metrics alone.
    const textOnly = await openSession(server.url, player.token);
    await textOnly.interact("Hello!", { audio_output: false });
    textOnly.close();
    const last = await scrape(server);
    expect(sample(last, "hoot_turns_total", 'outcome="complete"') - sample(after, "hoot_turns_total", 'outcome="complete"')).toBe(1);
    expect(sample(last, "hoot_turn_first_text_seconds_count") - sample(after, "hoot_turn_first_text_seconds_count")).toBe(1);
    expect(sample(last, "hoot_turn_first_audio_seconds_count")).toBe(sample(after, "hoot_turn_first_audio_seconds_count"));
  }, 40_000);

  it("counts an interrupted turn as interrupted", async () => {
    const slow = await startTestServer({ HOOT_LOCAL_TOKENS_PER_SECOND: "20", HOOT_TTS_PROVIDER: "openai", HOOT_TTS_BASE_URL: "http://127.0.0.1:9/v1" });
    try {
      const t = await createTeamFixture(slow);
      const player = await createPlayer(slow, t);
      const probe = await openSession(slow.url, player.token);
      const first = crypto.randomUUID();
      probe.send({ type: "stream", kind: "interact", uid: first, text: "Tell me a long story about a dragon", context: {}, audio_output: false });
      await probe.next((m) => m.uid === first && m.event === "text");
      await probe.interact("Hi!");
      probe.close();
      const text = await scrape(slow);
      expect(sample(text, "hoot_turns_total", 'outcome="interrupted"')).toBe(1);
      expect(sample(text, "hoot_turns_total", 'outcome="complete"')).toBe(1);
    } finally {
      await slow.close();
    }
  }, 30_000);

  it("counts a turn whose model fails under the error code the client was sent", async () => {
    // A loopback server that speaks the chat-completions protocol and always answers 500.
    const failing = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => Response.json({ error: { message: "down", type: "server_error" } }, { status: 500 }),
    });
    const broken = await startTestServer({
      HOOT_LLM_PROVIDER: "openai",
      HOOT_LLM_BASE_URL: `http://127.0.0.1:${failing.port}/v1`,
      HOOT_TTS_PROVIDER: "openai",
      HOOT_TTS_BASE_URL: "http://127.0.0.1:9/v1",
    });
    try {
      const t = await createTeamFixture(broken);
      const player = await createPlayer(broken, t);
      const probe = await openSession(broken.url, player.token);
      const { events } = await probe.interact("Hello!");
      probe.close();
      const error = events.find((e) => e.event === "interaction_error");
      expect(error?.code).toBe("llm_unavailable");
      const text = await scrape(broken);
      expect(sample(text, "hoot_turns_total", 'outcome="llm_unavailable"')).toBe(1);
      expect(sample(text, "hoot_turns_total", 'outcome="complete"')).toBe(0);
      // No token ever came: the first-token histogram stays empty.
      expect(sample(text, "hoot_llm_first_token_seconds_count")).toBe(0);
    } finally {
      await broken.close();
      failing.stop(true);
    }
  }, 30_000);
});

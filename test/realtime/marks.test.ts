/**
 * Speech marks on /v1/realtime (PROTOCOL.md sections 6 and 7) with the `openai` package's realtime client over
 * wss: a scripted model on loopback (so the words are known), the real offline voice (flite in workers), the real
 * server and SQLite file. Off by default; asked for with session.hoot.subtitles/visemes, each audio delta carries
 * the marks of its own audio under `hoot`, checked against the PCM the client decodes.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { expectWellFormed } from "../engine/tts/helpers.ts";
import { type FakeOpenAi, fakeProviderEnv, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { expectTimelineMatchesSound, pcmTimeline } from "./helpers/marks.ts";
import { type Event, OpenAiRealtime, selfSignedCert } from "./helpers/tls.ts";

const cert = selfSignedCert();
let fake: FakeOpenAi;
let server: TestServer;
let team: TeamFixture;

/** Only the fixtures' own HTTP helpers skip verifying the test certificate; the realtime client trusts it alone. */
async function trustingTestCert<T>(work: () => Promise<T>): Promise<T> {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  try {
    return await work();
  } finally {
    delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  }
}

beforeAll(async () => {
  fake = startFakeOpenAi();
  server = await startTestServer({
    HOOT_TLS_CERT_FILE: cert.certFile,
    HOOT_TLS_KEY_FILE: cert.keyFile,
    HOOT_LLM_PROVIDER: "openai",
    HOOT_LLM_BASE_URL: fake.url,
    HOOT_LLM_API_KEY: "sk-fake",
    HOOT_TTS_WORKERS: "2",
  });
  team = await trustingTestCert(() => createTeamFixture(server));
});
afterAll(async () => {
  await server.close();
  await fake.stop();
  rmSync(dirname(cert.certFile), { recursive: true, force: true });
});

const STORY =
  "Once upon a time, a little owl named Hoot lived in a tall oak tree. Every night she counted 25 stars! " +
  "Her friend, Dr. Badger, said: “Don’t worry, the moon always comes back.” Isn't that lovely?";

/** The model's reply, one token per word. */
const tokens = (text: string) => text.split(/(?= )/);
/** The words a client shows: the tokens that hold a letter or a digit. */
const wordsOf = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
const deltasOf = (events: Event[]) => events.filter((e) => e.type === "response.output_audio.delta");
const transcriptOf = (events: Event[]) =>
  events
    .filter((e) => e.type === "response.output_audio_transcript.delta")
    .map((e) => e.delta)
    .join("");

async function connect(on = server, onTeam = team): Promise<OpenAiRealtime> {
  const player = await trustingTestCert(() => createPlayer(on, onTeam));
  const rt = new OpenAiRealtime(on.url, player.token, cert.ca);
  await rt.next("session.created");
  return rt;
}

async function respond(rt: OpenAiRealtime, reply: string[]): Promise<Event[]> {
  fake.plan(reply);
  rt.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "tell me a story" }] } });
  rt.send({ type: "response.create" });
  const events = await rt.until("response.done", 30_000);
  expect(events.at(-1)!.response.status).toBe("completed");
  return events;
}

describe("speech marks on the Realtime door", () => {
  it("sends none unless asked: no hoot key on the audio deltas, and the session shows them off", async () => {
    const rt = await connect();
    rt.send({ type: "session.update", session: { type: "realtime" } });
    expect((await rt.next("session.updated")).session.hoot).toMatchObject({ subtitles: false, visemes: false });
    const deltas = deltasOf(await respond(rt, tokens("Hello there, my friend!")));
    expect(deltas.length).toBeGreaterThan(0);
    for (const delta of deltas) expect(Object.keys(delta)).not.toContain("hoot");
    expect(rt.undocumented).toEqual([]);
    rt.close();
  }, 40_000);

  it("times each delta's words and visemes against its own 24 kHz audio", async () => {
    const rt = await connect();
    rt.send({ type: "session.update", session: { type: "realtime", hoot: { subtitles: true, visemes: true } } });
    expect((await rt.next("session.updated")).session.hoot).toMatchObject({ subtitles: true, visemes: true, safety_policy: null });
    const events = await respond(rt, tokens(STORY));
    const deltas = deltasOf(events);
    expect(deltas.length).toBeGreaterThan(1);
    for (const delta of deltas) expect(delta.hoot.marks).toBe("engine");
    const transcript = transcriptOf(events);
    expect(transcript).toBe(STORY);
    // Each word of the transcript once, in order, in the delta where it starts.
    const words = deltas.flatMap((delta) => delta.hoot.subtitles.map((w: Event) => w.text));
    expect(words).toEqual(wordsOf(transcript));
    expect(words.join(" ")).toBe(transcript);
    // Durations to the sample and contiguous visemes, delta by delta; then the sound against the marks.
    const timeline = pcmTimeline(deltas);
    expect(timeline.samples.length / 24000).toBeGreaterThan(3);
    expectTimelineMatchesSound(timeline);
    expect(rt.undocumented).toEqual([]);
    rt.close();
  }, 60_000);

  it("sends only what was asked for, and the G.711 deltas' marks tile their 8 kHz audio", async () => {
    const rt = await connect();
    rt.send({ type: "session.update", session: { type: "realtime", hoot: { visemes: true }, audio: { output: { format: { type: "audio/pcmu" } } } } });
    expect((await rt.next("session.updated")).session.hoot).toMatchObject({ subtitles: false, visemes: true });
    const deltas = deltasOf(await respond(rt, tokens("Hello there, my friend! Let's count 3 stars.")));
    expect(deltas.length).toBeGreaterThan(0);
    for (const delta of deltas) {
      expect(Object.keys(delta.hoot).sort()).toEqual(["duration_sec", "marks", "visemes"]);
      const seconds = Buffer.from(delta.delta, "base64").byteLength / 8000;
      expect(delta.hoot.duration_sec).toBeCloseTo(seconds, 6);
      const end = delta.hoot.visemes.at(-1);
      expect(delta.hoot.visemes[0].start_time_sec).toBe(0);
      expect(end.start_time_sec + end.duration_sec).toBeCloseTo(seconds, 5);
    }
    expect(deltas.some((delta) => delta.hoot.visemes.some((v: Event) => v.viseme !== "sil"))).toBe(true);
    // Turned off again: no hoot key.
    rt.send({ type: "session.update", session: { type: "realtime", hoot: { visemes: false } } });
    await rt.next("session.updated");
    for (const delta of deltasOf(await respond(rt, tokens("Okay!")))) expect(Object.keys(delta)).not.toContain("hoot");
    rt.close();
  }, 60_000);

  it("gives a sentence held back by safety no marks: the captions are the words of the transcript", async () => {
    const rt = await connect();
    rt.send({ type: "session.update", session: { type: "realtime", hoot: { subtitles: true, visemes: true } } });
    await rt.next("session.updated");
    const events = await respond(rt, [
      "Hi",
      " there!",
      " He st",
      "abbed the m",
      "an until bl",
      "ood poured",
      " out everywhere.",
      " Let's",
      " play a",
      " game.",
    ]);
    const transcript = transcriptOf(events);
    expect(transcript).toBe("Hi there! Let's play a game.");
    const deltas = deltasOf(events);
    expect(deltas.flatMap((delta) => delta.hoot.subtitles.map((w: Event) => w.text))).toEqual(["Hi", "there!", "Let's", "play", "a", "game."]);
    const shown = JSON.stringify(deltas.map((delta) => delta.hoot));
    for (const word of ["stabbed", "blood", "everywhere"]) expect(shown).not.toContain(word);
    rt.close();
  }, 40_000);

  it("answers an unsafe input with marks of the policy's reply only, after hoot.safety_policy", async () => {
    const rt = await connect();
    rt.send({ type: "session.update", session: { type: "realtime", hoot: { subtitles: true, visemes: true } } });
    await rt.next("session.updated");
    rt.send({
      type: "conversation.item.create",
      item: { type: "message", role: "user", content: [{ type: "input_text", text: "I want to kill myself tonight" }] },
    });
    rt.send({ type: "response.create" });
    const events = await rt.until("response.done", 30_000);
    const policy = events.findIndex((e) => e.type === "hoot.safety_policy");
    const deltas = deltasOf(events);
    expect(policy).toBeGreaterThan(-1);
    expect(policy).toBeLessThan(events.indexOf(deltas[0]!));
    const transcript = transcriptOf(events);
    expect(transcript.toLowerCase()).toContain("grown-up you trust");
    expect(deltas.flatMap((delta) => delta.hoot.subtitles.map((w: Event) => w.text))).toEqual(wordsOf(transcript));
    expect(JSON.stringify(deltas.map((delta) => delta.hoot))).not.toContain("kill");
    rt.close();
  }, 40_000);

  it("says the marks of a voice without timings (an OpenAI-compatible speech server) are estimated", async () => {
    const remote = await startTestServer(fakeProviderEnv(fake, { HOOT_TLS_CERT_FILE: cert.certFile, HOOT_TLS_KEY_FILE: cert.keyFile }));
    try {
      const rt = await connect(remote, await trustingTestCert(() => createTeamFixture(remote)));
      rt.send({ type: "session.update", session: { type: "realtime", hoot: { subtitles: true, visemes: true } } });
      await rt.next("session.updated");
      const events = await respond(rt, tokens("Hello there, my friend! Let's count 3 stars."));
      const deltas = deltasOf(events);
      expect(deltas.length).toBeGreaterThan(1);
      for (const delta of deltas) {
        expect(delta.hoot.marks).toBe("estimated");
        const seconds = Buffer.from(delta.delta, "base64").byteLength / 2 / 24000;
        expect(delta.hoot.duration_sec).toBeCloseTo(seconds, 6);
        expectWellFormed({ subtitles: delta.hoot.subtitles, visemes: delta.hoot.visemes }, seconds);
      }
      expect(deltas.flatMap((delta) => delta.hoot.subtitles.map((w: Event) => w.text))).toEqual(wordsOf(transcriptOf(events)));
      rt.close();
    } finally {
      await remote.close();
    }
  }, 40_000);

  it("refuses a hoot field it does not know, in words, and keeps the session as it was", async () => {
    const rt = await connect();
    rt.send({ type: "session.update", event_id: "evt_typo", session: { type: "realtime", hoot: { subtitle: true } } });
    const error = await rt.next("error");
    expect(error.error).toMatchObject({ type: "invalid_request_error", code: "invalid_value", event_id: "evt_typo" });
    expect(error.error.message).toBe('session.update: field "session.hoot.subtitle" is not a known field');
    rt.send({ type: "session.update", session: { type: "realtime" } });
    expect((await rt.next("session.updated")).session.hoot).toMatchObject({ subtitles: false, visemes: false });
    rt.close();
  }, 30_000);
});

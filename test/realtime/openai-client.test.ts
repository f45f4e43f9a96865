/**
 * /v1/realtime with the ecosystem's own client: the `openai` package's OpenAIRealtimeWS, pointed at the real
 * server serving TLS itself (HOOT_TLS_CERT_FILE/KEY_FILE, a self-signed certificate made by openssl at test
 * time, trusted by the client as its only authority). Text turns, audio out in PCM 24 kHz and G.711, an
 * unsafe input, a stored configuration by prompt.id, an unknown event, cancel, and refused credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { eventually, rememberedOf } from "../compat/socket-helpers.ts";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { type Event, OpenAiRealtime, selfSignedCert } from "./helpers/tls.ts";

const cert = selfSignedCert();
afterAll(() => rmSync(dirname(cert.certFile), { recursive: true, force: true }));

/**
 * The fixtures' own HTTP helpers (login, player creation) use plain fetch: they alone may skip verifying the
 * test certificate. The realtime client never does: it trusts `cert.ca` and nothing else.
 */
async function trustingTestCert<T>(work: () => Promise<T>): Promise<T> {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  try {
    return await work();
  } finally {
    delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  }
}

let server: TestServer;
let team: TeamFixture;
beforeAll(async () => {
  server = await startTestServer({ HOOT_TLS_CERT_FILE: cert.certFile, HOOT_TLS_KEY_FILE: cert.keyFile });
  team = await trustingTestCert(() => createTeamFixture(server));
});
afterAll(() => server.close());

async function connect(model = "hoot"): Promise<{ rt: OpenAiRealtime; player: { pk: number; token: string } }> {
  const player = await trustingTestCert(() => createPlayer(server, team));
  const rt = new OpenAiRealtime(server.url, player.token, cert.ca, model);
  await rt.next("session.created");
  return { rt, player };
}

const types = (events: Event[]) => events.map((e) => e.type);
const say = (rt: OpenAiRealtime, text: string) =>
  rt.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text }] } });
const joined = (events: Event[], type: string) =>
  events
    .filter((e) => e.type === type)
    .map((e) => e.delta)
    .join("");

describe("the openai package's realtime client over wss", () => {
  it("is served over HTTPS: the server's URL is https and the client trusts only the test certificate", () => {
    expect(server.url.startsWith("https://127.0.0.1:")).toBe(true);
  });

  it("gets session.created with hoot's defaults", async () => {
    const player = await trustingTestCert(() => createPlayer(server, team));
    const rt = new OpenAiRealtime(server.url, player.token, cert.ca);
    const created = await rt.next("session.created");
    expect(created.event_id).toMatch(/^event_/);
    expect(created.session).toMatchObject({
      type: "realtime",
      output_modalities: ["audio"],
      instructions: expect.stringContaining("Hoot"),
      audio: {
        input: { format: { type: "audio/pcm", rate: 24000 }, turn_detection: { type: "server_vad" } },
        output: { format: { type: "audio/pcm", rate: 24000 }, voice: server.engine.voices()[0] },
      },
    });
    rt.close();
  });

  it("runs a text turn: the GA event sequence, .done text equal to its deltas, remembered in the history", async () => {
    const { rt, player } = await connect();
    rt.send({ type: "session.update", session: { type: "realtime", output_modalities: ["text"] } });
    expect((await rt.next("session.updated")).session.output_modalities).toEqual(["text"]);
    say(rt, "What do owls eat?");
    const added = await rt.next("conversation.item.added");
    expect(added.item).toMatchObject({ type: "message", role: "user", content: [{ type: "input_text", text: "What do owls eat?" }] });
    rt.send({ type: "response.create" });
    const events = await rt.until("response.done");
    const sequence = [...new Set(types(events.slice(events.findIndex((e) => e.type === "response.created"))))];
    expect(sequence.slice(0, 4)).toEqual(["response.created", "response.output_item.added", "conversation.item.added", "response.content_part.added"]);
    expect(sequence).toContain("response.output_text.delta");
    expect(sequence.slice(-5)).toEqual([
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "conversation.item.done",
      "response.done",
    ]);
    const text = joined(events, "response.output_text.delta");
    expect(text.length).toBeGreaterThan(0);
    expect(events.find((e) => e.type === "response.output_text.done")!.text).toBe(text);
    const done = events.at(-1)!;
    expect(done.response).toMatchObject({ status: "completed", output: [{ role: "assistant", content: [{ type: "output_text", text }] }] });
    expect(types(events)).not.toContain("response.output_audio.delta");
    // Every event the server sent is one of the documented union (the AsyncAPI document's schemas).
    expect(rt.undocumented).toEqual([]);
    await eventually(async () => (await rememberedOf(server, player.pk)).length === 2);
    expect(await rememberedOf(server, player.pk)).toEqual([
      { role: "user", text: "What do owls eat?" },
      { role: "assistant", text },
    ]);
    rt.close();
  });

  it("speaks a reply as PCM16 at 24 kHz with the transcript deltas, and as G.711 u-law at 8 kHz when asked", async () => {
    const { rt } = await connect();
    say(rt, "Tell me about the moon.");
    rt.send({ type: "response.create" });
    const events = await rt.until("response.done");
    const audio = Buffer.concat(events.filter((e) => e.type === "response.output_audio.delta").map((e) => Buffer.from(e.delta, "base64")));
    const transcript = joined(events, "response.output_audio_transcript.delta");
    expect(transcript.length).toBeGreaterThan(0);
    expect(events.find((e) => e.type === "response.output_audio_transcript.done")!.transcript).toBe(transcript);
    expect(rt.undocumented).toEqual([]);
    expect(types(events)).toContain("response.output_audio.done");
    expect(types(events)).not.toContain("response.output_text.delta");
    // 16-bit samples at 24 kHz: a spoken sentence lasts well over half a second, and it is not silence.
    expect(audio.byteLength % 2).toBe(0);
    expect(audio.byteLength / 2 / 24000).toBeGreaterThan(0.5);
    const samples = new Int16Array(audio.buffer, audio.byteOffset, audio.byteLength / 2);
    expect(samples.reduce((peak, s) => Math.max(peak, Math.abs(s)), 0)).toBeGreaterThan(1000);
    expect(events.at(-1)!.response).toMatchObject({ status: "completed", output: [{ content: [{ type: "output_audio", transcript }] }] });

    rt.send({ type: "session.update", session: { type: "realtime", audio: { output: { format: { type: "audio/pcmu" }, voice: "marin" } } } });
    const updated = await rt.next("session.updated");
    // A voice hoot does not have falls back to the default child voice, and the session says so.
    expect(updated.session.audio.output).toMatchObject({ format: { type: "audio/pcmu" }, voice: server.engine.voices()[0] });
    say(rt, "Tell me about the moon.");
    rt.send({ type: "response.create" });
    const ulaw = await rt.until("response.done");
    const bytes = Buffer.concat(ulaw.filter((e) => e.type === "response.output_audio.delta").map((e) => Buffer.from(e.delta, "base64")));
    // One byte a sample at 8 kHz.
    expect(bytes.byteLength / 8000).toBeGreaterThan(0.5);
    rt.close();
  });

  it("answers an unsafe input with hoot.safety_policy before the first delta, the policy's reply, and an incident", async () => {
    const { rt, player } = await connect();
    rt.send({ type: "session.update", session: { type: "realtime", output_modalities: ["text"] } });
    await rt.next("session.updated");
    say(rt, "I want to kill myself tonight");
    rt.send({ type: "response.create" });
    const events = await rt.until("response.done");
    const policy = events.findIndex((e) => e.type === "hoot.safety_policy");
    const firstDelta = events.findIndex((e) => e.type === "response.output_text.delta");
    expect(policy).toBeGreaterThan(-1);
    expect(policy).toBeLessThan(firstDelta);
    expect(events[policy]).toMatchObject({ category: "self_harm", action: "escalate" });
    // The notice never carries the child's words.
    expect(JSON.stringify(events[policy])).not.toContain("kill");
    const reply = joined(events, "response.output_text.delta");
    expect(reply.toLowerCase()).toContain("grown-up you trust");
    expect(events.at(-1)!.response.status).toBe("completed");
    const incidents = () => rawSql(server.deps.database, "SELECT category FROM safety_incidents WHERE player_id = ?", player.pk);
    await eventually(async () => (await incidents()).length > 0);
    expect(await incidents()).toEqual([{ category: "self_harm" }]);
    expect(rt.undocumented).toEqual([]);
    rt.close();
  });

  it("takes a stored configuration of the player's team by prompt.id, and refuses an unknown one leaving the session as it was", async () => {
    const pip = "You are Pip, a cheerful penguin who loves fish and snow.";
    const stored = await trustingTestCert(() =>
      api(server.url, "POST", "/api/configs", { token: team.developerToken, body: { name: "pip", config: { prompt: pip } } }),
    );
    expect(stored.status).toBe(201);
    const { rt } = await connect();
    rt.send({ type: "session.update", session: { type: "realtime", prompt: { id: "pip", version: "1" } } });
    expect((await rt.next("session.updated")).session).toMatchObject({ instructions: pip, prompt: { id: "pip", version: "1" } });

    rt.send({ type: "session.update", event_id: "evt_unknown_prompt", session: { type: "realtime", prompt: { id: "nobody" }, output_modalities: ["text"] } });
    const error = await rt.next("error");
    expect(error.error).toMatchObject({ type: "invalid_request_error", code: "unknown_reference", event_id: "evt_unknown_prompt" });
    expect(error.error.message).toContain("nobody");
    rt.send({ type: "session.update", session: { type: "realtime" } });
    expect((await rt.next("session.updated")).session).toMatchObject({ instructions: pip, output_modalities: ["audio"], prompt: { id: "pip" } });

    // When both are given, the stored configuration is taken and instructions replaces its prompt text.
    rt.send({ type: "session.update", session: { type: "realtime", prompt: { id: "pip" }, instructions: "You are Pip the astronaut penguin." } });
    expect((await rt.next("session.updated")).session.instructions).toBe("You are Pip the astronaut penguin.");
    rt.close();
  });

  it("answers an unknown event type with an invalid_request_error naming it, and the socket stays open", async () => {
    const { rt } = await connect();
    rt.send({ type: "response.dance", event_id: "evt_dance" });
    const error = await rt.next("error");
    expect(error.error).toMatchObject({ type: "invalid_request_error", event_id: "evt_dance" });
    expect(error.error.message).toContain('"response.dance"');
    rt.send({ type: "conversation.item.create", event_id: "evt_bad", item: { type: "message", role: "user", content: "hello" } });
    const bad = await rt.next("error");
    expect(bad.error).toMatchObject({ type: "invalid_request_error", event_id: "evt_bad", param: "item.content" });
    rt.send({ type: "session.update", session: { type: "realtime", output_modalities: ["text"] } });
    expect((await rt.next("session.updated")).type).toBe("session.updated");
    rt.close();
  });

  it("refuses a credential that is not a player token before the upgrade", async () => {
    const rt = new OpenAiRealtime(server.url, team.developerToken, cert.ca);
    expect(await rt.closed).not.toBe(1000);
    expect(rt.errors.map((e) => e.message).join(" ")).toContain("401");
    expect(rt.events).toEqual([]);
  });
});

describe("cancel over the openai package's client", () => {
  let slow: TestServer;
  let slowTeam: TeamFixture;
  beforeAll(async () => {
    // A slow language model, so the response is still streaming when the cancel arrives.
    slow = await startTestServer({ HOOT_TLS_CERT_FILE: cert.certFile, HOOT_TLS_KEY_FILE: cert.keyFile, HOOT_LOCAL_TOKENS_PER_SECOND: "15" });
    slowTeam = await trustingTestCert(() => createTeamFixture(slow));
  });
  afterAll(() => slow.close());

  it("stops a running response with status cancelled, and the history keeps what was sent", async () => {
    const player = await trustingTestCert(() => createPlayer(slow, slowTeam));
    const rt = new OpenAiRealtime(slow.url, player.token, cert.ca);
    await rt.next("session.created");
    rt.send({ type: "session.update", session: { type: "realtime", output_modalities: ["text"] } });
    await rt.next("session.updated");
    say(rt, "Tell me a long story about a brave little owl.");
    rt.send({ type: "response.create" });
    const firstDelta = await rt.next("response.output_text.delta");
    rt.send({ type: "response.cancel", event_id: "evt_cancel" });
    const rest = await rt.until("response.done");
    const done = rest.at(-1)!;
    expect(done.response.status).toBe("cancelled");
    const sent = firstDelta.delta + joined(rest, "response.output_text.delta");
    expect(rest.find((e) => e.type === "response.output_text.done")!.text).toBe(sent);
    await eventually(async () => (await rememberedOf(slow, player.pk)).length === 2);
    expect((await rememberedOf(slow, player.pk))[1]).toEqual({ role: "assistant", text: sent });
    // Nothing to cancel now: an error naming that, with the event's id.
    rt.send({ type: "response.cancel", event_id: "evt_cancel_again" });
    expect((await rt.next("error")).error).toMatchObject({ code: "response_cancel_not_active", event_id: "evt_cancel_again" });
    rt.close();
  });
});

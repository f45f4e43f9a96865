/**
 * Audio in on /v1/realtime with the `openai` package's realtime client over wss: speech made by hoot's own
 * speech engine, sent as PCM16 at 24 kHz (and G.711 u-law at 8 kHz), a fake OpenAI-compatible recogniser on
 * loopback. Server VAD finds the turn and answers by itself; with turn detection off the client commits and
 * asks. Appends are paid from the audio budget, not the message rate.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { encodeOutput } from "../../src/realtime/audio.ts";
import { eventually, rememberedOf } from "../compat/socket-helpers.ts";
import { chunks, envelopeMatch, pcm16Bytes, speech } from "../engine/voice-in/helpers/speech.ts";
import { startFakeOpenAi } from "../helpers/fake-openai.ts";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { RtProbe } from "./helpers/probe.ts";
import { type Event, OpenAiRealtime, selfSignedCert } from "./helpers/tls.ts";

const HEARD = "I want to play with my puppy";
const cert = selfSignedCert();
const stt = startFakeOpenAi({ transcript: HEARD });
afterAll(async () => {
  await stt.stop();
  rmSync(dirname(cert.certFile), { recursive: true, force: true });
});

/** The fixtures' plain-fetch helpers alone may skip verifying the test certificate (see openai-client.test.ts). */
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
let spoken: Int16Array;
beforeAll(async () => {
  server = await startTestServer({
    HOOT_TLS_CERT_FILE: cert.certFile,
    HOOT_TLS_KEY_FILE: cert.keyFile,
    HOOT_STT_PROVIDER: "openai",
    HOOT_STT_BASE_URL: stt.url,
    HOOT_WS_MESSAGES_PER_MINUTE: "20",
  });
  team = await trustingTestCert(() => createTeamFixture(server));
  spoken = await speech();
});
afterAll(() => server.close());

async function connect(): Promise<{ rt: OpenAiRealtime; player: { pk: number } }> {
  const player = await trustingTestCert(() => createPlayer(server, team));
  const rt = new OpenAiRealtime(server.url, player.token, cert.ca);
  await rt.next("session.created");
  return { rt, player };
}

/** The speech as 16-bit PCM at 24 kHz (the default input format), 100 ms an append. */
function pcm24k(): Uint8Array[] {
  const bytes16k = pcm16Bytes(spoken);
  return chunks(encodeOutput(bytes16k, 16000, "audio/pcm"), 4800);
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const types = (events: Event[]) => events.map((e) => e.type);

describe("audio in over the openai package's client", () => {
  it("with server VAD: speech_started, speech_stopped, committed, the transcript, then a response the server starts", async () => {
    const { rt, player } = await connect();
    const before = stt.transcriptions.length;
    // More appends than the message rate allows: they are paid from the audio budget instead.
    const parts = pcm24k();
    expect(parts.length).toBeGreaterThan(20);
    for (const part of parts) rt.send({ type: "input_audio_buffer.append", audio: b64(part) });
    const started = await rt.next("input_audio_buffer.speech_started");
    // The speech begins after half a second of silence.
    expect(started.audio_start_ms).toBeGreaterThanOrEqual(300);
    expect(started.audio_start_ms).toBeLessThanOrEqual(800);
    const stopped = await rt.next("input_audio_buffer.speech_stopped");
    expect(stopped.item_id).toBe(started.item_id);
    expect(stopped.audio_end_ms).toBeGreaterThan(started.audio_start_ms);
    expect((await rt.next("input_audio_buffer.committed")).item_id).toBe(started.item_id);
    const transcribed = await rt.next("conversation.item.input_audio_transcription.completed");
    expect(transcribed).toMatchObject({ item_id: started.item_id, content_index: 0, transcript: HEARD });
    const events = await rt.until("response.done");
    // The server started the response itself, once the transcript was in.
    expect(types(rt.events)).toContain("response.created");
    expect(types(events)).toContain("response.output_audio.delta");
    expect(events.at(-1)!.response.status).toBe("completed");
    // The recogniser heard the speech that was sent, as 16 kHz mono WAV.
    expect(stt.transcriptions.length).toBe(before + 1);
    expect(envelopeMatch(stt.transcriptions.at(-1)!.samples!, spoken)).toBeGreaterThan(0.9);
    await eventually(async () => (await rememberedOf(server, player.pk)).length === 2);
    expect((await rememberedOf(server, player.pk))[0]).toEqual({ role: "user", text: HEARD });
    expect(rt.errors).toEqual([]);
    expect(rt.undocumented).toEqual([]);
    rt.close();
  });

  it("with turn detection off: the client commits G.711 u-law audio and asks for the response", async () => {
    const { rt, player } = await connect();
    rt.send({
      type: "session.update",
      session: { type: "realtime", output_modalities: ["text"], audio: { input: { format: { type: "audio/pcmu" }, turn_detection: null } } },
    });
    expect((await rt.next("session.updated")).session.audio.input).toMatchObject({ format: { type: "audio/pcmu" }, turn_detection: null });
    rt.send({ type: "input_audio_buffer.commit", event_id: "evt_empty" });
    expect((await rt.next("error")).error).toMatchObject({ code: "input_audio_buffer_commit_empty", event_id: "evt_empty" });
    const ulaw = encodeOutput(pcm16Bytes(spoken), 16000, "audio/pcmu");
    for (const part of chunks(ulaw, 1600)) rt.send({ type: "input_audio_buffer.append", audio: b64(part) });
    rt.send({ type: "input_audio_buffer.commit" });
    const committed = await rt.next("input_audio_buffer.committed");
    rt.send({ type: "response.create" });
    expect(await rt.next("conversation.item.input_audio_transcription.completed")).toMatchObject({ item_id: committed.item_id, transcript: HEARD });
    const events = await rt.until("response.done");
    expect(events.at(-1)!.response.status).toBe("completed");
    expect(types(events)).toContain("response.output_text.delta");
    // Without server VAD the server never speaks of speech starting or stopping.
    expect(rt.events.map((e) => e.type)).not.toContain("input_audio_buffer.speech_started");
    expect(envelopeMatch(stt.transcriptions.at(-1)!.samples!, spoken)).toBeGreaterThan(0.8);
    await eventually(async () => (await rememberedOf(server, player.pk)).length === 2);
    expect((await rememberedOf(server, player.pk))[0]).toEqual({ role: "user", text: HEARD });
    rt.close();
  });

  it("clears the input buffer: input_audio_buffer.cleared, and a commit after it finds nothing", async () => {
    const { rt } = await connect();
    rt.send({ type: "session.update", session: { type: "realtime", audio: { input: { turn_detection: null } } } });
    await rt.next("session.updated");
    for (const part of pcm24k().slice(0, 5)) rt.send({ type: "input_audio_buffer.append", audio: b64(part) });
    rt.send({ type: "input_audio_buffer.clear" });
    await rt.next("input_audio_buffer.cleared");
    rt.send({ type: "input_audio_buffer.commit" });
    expect((await rt.next("error")).error.code).toBe("input_audio_buffer_commit_empty");
    rt.close();
  });
});

describe("the audio budget", () => {
  it("refuses appends past the audio budget with an error event, and the socket stays open", async () => {
    const tight = await startTestServer({ HOOT_WS_AUDIO_BURST_SECONDS: "1", HOOT_WS_AUDIO_SECONDS_PER_SECOND: "1" });
    try {
      const tightTeam = await createTeamFixture(tight);
      const player = await createPlayer(tight, tightTeam);
      const probe = await RtProbe.open(tight.url, { token: player.token });
      await probe.next("session.created");
      probe.send({ type: "session.update", session: { audio: { input: { turn_detection: null } } } });
      await probe.next("session.updated");
      for (const part of pcm24k().slice(0, 15)) probe.send({ type: "input_audio_buffer.append", event_id: "evt_append", audio: b64(part) });
      expect((await probe.next("error")).error).toMatchObject({ code: "rate_limited", event_id: "evt_append" });
      probe.send({ type: "input_audio_buffer.clear" });
      await probe.next("input_audio_buffer.cleared");
      probe.close();
    } finally {
      await tight.close();
    }
  });
});

describe("speaking over a reply, with server VAD", () => {
  let slow: TestServer;
  let slowTeam: TeamFixture;
  beforeAll(async () => {
    // A slow language model, so the reply is still streaming when the child starts speaking.
    slow = await startTestServer({ HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url, HOOT_LOCAL_TOKENS_PER_SECOND: "8" });
    slowTeam = await createTeamFixture(slow);
  });
  afterAll(() => slow.close());

  it("stops the running response (cancelled, what was sent kept) and keeps the new speech for the next turn", async () => {
    const player = await createPlayer(slow, slowTeam);
    const probe = await RtProbe.open(slow.url, { token: player.token });
    await probe.next("session.created");
    probe.send({ type: "session.update", session: { output_modalities: ["text"] } });
    await probe.next("session.updated");
    probe.send({ type: "response.create" });
    const first = await probe.next("response.output_text.delta");
    for (const part of pcm24k()) probe.send({ type: "input_audio_buffer.append", audio: b64(part) });
    await probe.next("input_audio_buffer.speech_started");
    const stopped = await probe.next((e) => e.type === "response.done" && e.response.id === first.response_id);
    expect(stopped.response.status).toBe("cancelled");
    await probe.next("input_audio_buffer.speech_stopped");
    // The speech heard while the reply was stopped is all there: the recogniser gets it whole.
    expect((await probe.next("conversation.item.input_audio_transcription.completed")).transcript).toBe(HEARD);
    expect(envelopeMatch(stt.transcriptions.at(-1)!.samples!, spoken)).toBeGreaterThan(0.9);
    const next = await probe.next("response.done", 30_000);
    expect(next.response.status).toBe("completed");
    const remembered = await rememberedOf(slow, player.pk);
    expect(remembered.map((m) => m.role)).toEqual(["assistant", "user", "assistant"]);
    expect(remembered[0]!.text).toBe(stopped.response.output[0].content[0].text);
    expect(remembered[1]).toEqual({ role: "user", text: HEARD });
    probe.close();
  });
});

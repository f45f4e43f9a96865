/**
 * Data-lite mode on the OpenAI Realtime door (PROTOCOL.md sections 7 and 8), with the `openai` package's realtime
 * client over wss against the real server: on a team that requires a parent's consent, a player without it talks
 * over /v1/realtime with nothing of the conversation written (no rows, no child's word in the database files), a
 * truncate never cuts an older session's stored reply, the socket's own memory (RAM) still carries the earlier
 * turns to the model, and audio is never sent to a recogniser outside the machine (`stt_consent_required`).
 * The same flows with consent store and transcribe as usual. Full-mode truncate is test/realtime/wire.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { encodeOutput } from "../../src/realtime/audio.ts";
import { eventually, rememberedOf } from "../compat/socket-helpers.ts";
import { chunks, pcm16Bytes, speech } from "../engine/voice-in/helpers/speech.ts";
import { everything, rawSql } from "../helpers/database.ts";
import { fakeProviderEnv, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { api, createPlayer, createTeamFixture, login, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { type Event, OpenAiRealtime, selfSignedCert } from "./helpers/tls.ts";

const cert = selfSignedCert();
const llm = startFakeOpenAi({ reply: ["What", " a", " lovely", " story."] });
const stt = startFakeOpenAi({ transcript: "my hamster Percival escaped again" });
// 0.0.0.0 reaches this machine on Linux but is not a loopback name: the recogniser counts as outside the machine.
const outside = stt.url.replace("127.0.0.1", "0.0.0.0");

let server: TestServer;
let team: TeamFixture;
let spoken: Int16Array;
beforeAll(async () => {
  server = await startTestServer({
    ...fakeProviderEnv(llm),
    HOOT_TLS_CERT_FILE: cert.certFile,
    HOOT_TLS_KEY_FILE: cert.keyFile,
    HOOT_STT_PROVIDER: "openai",
    HOOT_STT_BASE_URL: outside,
  });
  team = await trustingTestCert(() => createTeamFixture(server));
  spoken = await speech();
});
afterAll(async () => {
  await server.close();
  await llm.stop();
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

const WORDS = "my pet snail Gwendolyn lives under the blue flowerpot";

/** The SQLite file and its WAL as bytes on disk now (the PostgreSQL pass: every row of every table). */
async function onDisk(): Promise<Buffer> {
  if (server.backend !== "sqlite") return everything(server.deps.database);
  const path = server.config.databasePath;
  return Buffer.concat([readFileSync(path), existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`) : Buffer.alloc(0)]);
}

const rows = (playerPk: number) => rawSql(server.deps.database, "SELECT role FROM conversation_messages WHERE player_id = ? ORDER BY id", playerPk);

/** What the model was shown in the newest streamed reply call, without the system prompt. */
const modelHeard = () =>
  llm
    .replyCalls()
    .at(-1)!
    .messages.filter((m) => m.role !== "system")
    .map((m) => m.content);

async function requireConsent(on: boolean): Promise<void> {
  const res = await trustingTestCert(() =>
    api(server.url, "PATCH", `/api/teams/${team.teamId}`, { token: team.developerToken, body: { require_consent: on } }),
  );
  expect(res.body.team.require_consent).toBe(on);
}

async function setConsent(playerPk: number, consent: "none" | "granted"): Promise<void> {
  const res = await trustingTestCert(async () => {
    const service = (await login(server.url, { api_key: team.backendKey })).access_token;
    return api(server.url, "PATCH", `/api/players/${playerPk}`, { token: service, body: { consent } });
  });
  expect(res.body.consent).toBe(consent);
}

async function exportedHistory(playerPk: number): Promise<string[]> {
  const res = await trustingTestCert(() => api(server.url, "GET", `/api/players/${playerPk}/data`, { token: team.developerToken }));
  return res.body.history.map((m: { text: string }) => m.text);
}

async function newPlayer(consent: "none" | "granted"): Promise<{ pk: number; token: string }> {
  const player = await trustingTestCert(() => createPlayer(server, team));
  if (consent === "granted") await setConsent(player.pk, "granted");
  return player;
}

async function connect(token: string, modality: "text" | "audio", turnDetection?: null): Promise<OpenAiRealtime> {
  const rt = new OpenAiRealtime(server.url, token, cert.ca);
  await rt.next("session.created");
  const audio = turnDetection === null ? { audio: { input: { turn_detection: null } } } : {};
  rt.send({ type: "session.update", session: { type: "realtime", output_modalities: [modality], ...audio } });
  await rt.next("session.updated");
  return rt;
}

/** One text turn: the user item, response.create, and every event up to response.done. */
async function textTurn(rt: OpenAiRealtime, text: string): Promise<Event[]> {
  rt.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text }] } });
  await rt.next("conversation.item.done");
  rt.send({ type: "response.create" });
  const events = await rt.until("response.done");
  expect(events.at(-1)!.response.status).toBe("completed");
  return events;
}

/** The speech as PCM16 at 24 kHz (the default input format) appended in 100 ms parts, then committed. */
function sayAndCommit(rt: OpenAiRealtime, eventId: string): void {
  for (const part of chunks(encodeOutput(pcm16Bytes(spoken), 16000, "audio/pcm"), 4800)) {
    rt.send({ type: "input_audio_buffer.append", audio: Buffer.from(part).toString("base64") });
  }
  rt.send({ type: "input_audio_buffer.commit", event_id: eventId });
}

describe("data-lite mode on /v1/realtime", () => {
  it("writes nothing of a text turn without consent, and keeps the earlier turn in the socket's own memory", async () => {
    await requireConsent(true);
    const player = await newPlayer("none");
    const rt = await connect(player.token, "text");
    const first = await textTurn(rt, WORDS);
    expect(first.find((e) => e.type === "response.output_text.done")!.text).toBe("What a lovely story.");
    await textTurn(rt, "what lives under the flowerpot?");
    // The second turn's model request still holds the first turn: the socket remembers within itself.
    expect(modelHeard()).toEqual([WORDS, "What a lovely story.", "what lives under the flowerpot?"]);
    expect(rt.errors).toEqual([]);
    rt.close();
    await rt.closed;

    expect(await rows(player.pk)).toEqual([]);
    expect(await exportedHistory(player.pk)).toEqual([]);
    const disk = await onDisk();
    for (const word of ["Gwendolyn", "flowerpot", "lovely story"]) expect(disk.includes(Buffer.from(word))).toBe(false);

    // A new socket starts with no memory: the RAM one ended with the first.
    const again = await connect(player.token, "text");
    await textTurn(again, "hello");
    expect(modelHeard()).toEqual(["hello"]);
    again.close();
  });

  it("stores the same text turn once a parent has consented", async () => {
    await requireConsent(true);
    const player = await newPlayer("granted");
    const rt = await connect(player.token, "text");
    await textTurn(rt, WORDS);
    rt.close();
    await eventually(async () => (await rows(player.pk)).length === 2);
    expect((await rows(player.pk)).map((r) => r.role)).toEqual(["user", "assistant"]);
    expect(await exportedHistory(player.pk)).toEqual([WORDS, "What a lovely story."]);
  });

  it("never cuts an older session's stored reply with a truncate after consent was revoked, and writes nothing new", async () => {
    await requireConsent(true);
    const player = await newPlayer("granted");
    const stored = ["Gwendolyn naps in the shade.", " She dreams of rain."];
    llm.plan(stored);
    const before = await connect(player.token, "audio");
    await textTurn(before, "tell me about Gwendolyn");
    before.close();
    await eventually(async () => (await rows(player.pk)).length === 2);
    const kept = await rememberedOf(server, player.pk);
    expect(kept).toEqual([
      { role: "user", text: "tell me about Gwendolyn" },
      { role: "assistant", text: stored.join("") },
    ]);

    // Revoking consent erases nothing; the next session talks in data-lite mode.
    await setConsent(player.pk, "none");
    llm.plan(["Percival races around the wheel.", " He never sleeps at night."]);
    const rt = await connect(player.token, "audio");
    const events = await textTurn(rt, "and what about Percival?");
    const done = events.at(-1)!.response;
    const transcript: string = done.output[0].content[0].transcript;
    expect(transcript).toBe("Percival races around the wheel. He never sleeps at night.");
    rt.send({ type: "conversation.item.truncate", item_id: done.output[0].id, content_index: 0, audio_end_ms: 50 });
    const truncated = await rt.next("conversation.item.truncated");
    expect(truncated).toMatchObject({ item_id: done.output[0].id, audio_end_ms: 50 });
    // The socket's own memory (RAM) keeps only what was heard: the next turn's model sees the cut reply.
    await textTurn(rt, "and then?");
    const remembered = llm.chats
      .at(-1)!
      .body.messages.filter((m) => m.role === "assistant")
      .map((m) => m.content);
    expect(remembered).toHaveLength(1);
    expect(remembered[0]!.length).toBeLessThan(transcript.length);
    expect(transcript.startsWith(remembered[0]!)).toBe(true);
    rt.close();
    await rt.closed;

    // The older reply is as it was, and the data-lite turn added nothing.
    expect(await rememberedOf(server, player.pk)).toEqual(kept);
    expect((await rows(player.pk)).length).toBe(2);
    const disk = await onDisk();
    for (const word of ["Percival", "the wheel"]) expect(disk.includes(Buffer.from(word))).toBe(false);
  });

  it("refuses a commit with stt_consent_required instead of sending the audio outside the machine, and transcribes with consent", async () => {
    await requireConsent(true);
    const player = await newPlayer("none");
    const rt = await connect(player.token, "text", null);
    const before = stt.transcriptions.length;
    sayAndCommit(rt, "evt_commit_lite");
    const refused = await rt.next("error", 30_000);
    expect(refused.error).toMatchObject({ code: "stt_consent_required", event_id: "evt_commit_lite" });
    expect(refused.error.message).toContain("consent");
    expect(stt.transcriptions.length).toBe(before);
    // The socket stays open and usable.
    rt.send({ type: "session.update", session: { type: "realtime", output_modalities: ["text"] } });
    expect((await rt.next("session.updated")).type).toBe("session.updated");
    expect(await rows(player.pk)).toEqual([]);

    await setConsent(player.pk, "granted");
    sayAndCommit(rt, "evt_commit_full");
    const heard = await rt.next("conversation.item.input_audio_transcription.completed", 30_000);
    expect(heard.transcript).toBe(stt.transcript);
    expect(stt.transcriptions.length).toBe(before + 1);
    // The openai package raised the refusal to its user as an error carrying the code, and nothing else.
    expect(rt.errors.map((e) => (e as Error & { error?: { code?: string } }).error?.code)).toEqual(["stt_consent_required"]);
    expect(rt.undocumented).toEqual([]);
    rt.close();
  }, 60_000);

  it("with server VAD, a refused transcript starts no response: the character never answers words nobody said", async () => {
    await requireConsent(true);
    const player = await newPlayer("none");
    const rt = await connect(player.token, "text");
    for (const part of chunks(encodeOutput(pcm16Bytes(spoken), 16000, "audio/pcm"), 4800)) {
      rt.send({ type: "input_audio_buffer.append", audio: Buffer.from(part).toString("base64") });
    }
    await rt.next("input_audio_buffer.committed", 30_000);
    expect((await rt.next("error", 30_000)).error.code).toBe("stt_consent_required");
    await rt.next("conversation.item.input_audio_transcription.failed");
    // The next response is the one the client asks for, over its own words, and it is the only one.
    const events = await textTurn(rt, "tell me a story");
    expect(rt.events.filter((e) => e.type === "response.created")).toHaveLength(1);
    expect(events.filter((e) => e.type === "response.output_text.delta").length).toBeGreaterThan(0);
    expect(
      llm.chats
        .at(-1)!
        .body.messages.filter((m) => m.role === "user")
        .map((m) => m.content),
    ).toEqual(["tell me a story"]);
    rt.close();
  }, 60_000);
});

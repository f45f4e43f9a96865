/**
 * Data-lite mode through the real server (PROTOCOL.md section 8): on a team that requires a parent's consent,
 * a player without it talks with nothing of the conversation written (no rows, no child's word in the
 * database files), the socket's memory in RAM only, and audio never sent to a recogniser outside the machine;
 * incidents are still recorded. The same flow with consent stores the conversation as usual.
 */
import { afterAll, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { chunks, fixture } from "../engine/voice-in/helpers/speech.ts";
import { everything, rawSql } from "../helpers/database.ts";
import { type FakeOpenAi, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { api, createPlayer, login, serverForFile, type TestServer } from "../helpers/server.ts";
import { openSession, type WsProbe } from "../helpers/ws.ts";

const llm: FakeOpenAi = startFakeOpenAi({ reply: ["What", " a", " lovely", " story."] });
const stt = startFakeOpenAi({ transcript: "my hamster Percival escaped again" });
// 0.0.0.0 reaches this machine on Linux but is not a loopback name: the recogniser counts as outside the machine.
const outside = stt.url.replace("127.0.0.1", "0.0.0.0");
const file = serverForFile({
  HOOT_LLM_PROVIDER: "openai",
  HOOT_LLM_BASE_URL: llm.url,
  HOOT_LLM_API_KEY: "sk-test",
  HOOT_LLM_MODEL: "fake-model",
  HOOT_STT_PROVIDER: "openai",
  HOOT_STT_BASE_URL: outside,
});
afterAll(async () => {
  await llm.stop();
  await stt.stop();
});

const WORDS = "my pet snail Gwendolyn lives under the blue flowerpot";
const DISCLOSURE = "I want to kill myself tonight";

/** The SQLite file and its WAL as bytes on disk now (the PostgreSQL pass: every row of every table). */
async function onDisk(server: TestServer): Promise<Buffer> {
  if (server.backend !== "sqlite") return everything(server.deps.database);
  const path = server.config.databasePath;
  return Buffer.concat([readFileSync(path), existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`) : Buffer.alloc(0)]);
}

const rows = async (playerPk: number) => rawSql(file.server.deps.database, "SELECT role FROM conversation_messages WHERE player_id = ? ORDER BY id", playerPk);
const modelHeard = () =>
  llm.chats
    .at(-1)!
    .body.messages!.filter((m) => m.role !== "system")
    .map((m) => m.content);

async function requireConsent(on: boolean): Promise<void> {
  const res = await api(file.server.url, "PATCH", `/api/teams/${file.team.teamId}`, { token: file.team.developerToken, body: { require_consent: on } });
  expect(res.body.team.require_consent).toBe(on);
}

async function setConsent(playerPk: number, consent: "none" | "granted"): Promise<void> {
  const service = (await login(file.server.url, { api_key: file.team.backendKey })).access_token;
  const res = await api(file.server.url, "PATCH", `/api/players/${playerPk}`, { token: service, body: { consent } });
  expect(res.body.consent).toBe(consent);
}

async function voiceTurn(probe: WsProbe) {
  const webm = fixture("puppy.webm");
  for (const part of [webm.subarray(0, 1), ...chunks(webm.subarray(1), 4000)]) {
    await probe.request("add_audio", { audio: Buffer.from(part).toString("base64"), config: { mime_type: "audio/mpeg", sampling_rate: 48000 } });
  }
  const uid = crypto.randomUUID();
  probe.send({ type: "stream", kind: "interact", uid, context: {}, audio_output: false });
  return probe.collect(uid, 20_000);
}

describe("data-lite mode", () => {
  it("writes nothing of a player's conversation without consent, keeps the socket's memory in RAM, and still records incidents", async () => {
    await requireConsent(true);
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    const first = await probe.interact(WORDS);
    expect(first.events.find((e) => e.event === "text_complete")?.text).toBe("What a lovely story.");
    expect(first.events.some((e) => e.event === "interaction_complete")).toBe(true);
    await probe.interact("what lives under the flowerpot?");
    // The socket remembers within itself.
    expect(modelHeard()).toEqual([WORDS, "What a lovely story.", "what lives under the flowerpot?"]);
    await probe.interact(DISCLOSURE);
    probe.close();

    expect(await rows(player.pk)).toEqual([]);
    const disk = await onDisk(file.server);
    for (const word of ["Gwendolyn", "flowerpot", "lovely story", "kill myself"]) expect(disk.includes(Buffer.from(word))).toBe(false);
    const incidents = await api(file.server.url, "GET", `/api/safety/incidents?player_pk=${player.pk}`, { token: file.team.developerToken });
    expect(incidents.body.incidents.length).toBeGreaterThan(0);
    const exported = (await api(file.server.url, "GET", `/api/players/${player.pk}/data`, { token: file.team.developerToken })).body;
    expect(exported.history).toEqual([]);
    expect(exported.incidents.length).toBeGreaterThan(0);

    // A new socket starts with no memory: the RAM one ended with the first.
    const again = await openSession(file.server.url, player.token);
    await again.interact("hello");
    expect(modelHeard()).toEqual(["hello"]);
    again.close();
  });

  it("stores the same flow as usual once a parent has consented", async () => {
    await requireConsent(true);
    const player = await createPlayer(file.server, file.team);
    await setConsent(player.pk, "granted");
    const probe = await openSession(file.server.url, player.token);
    await probe.interact(WORDS);
    await probe.interact("what lives under the flowerpot?");
    probe.close();
    expect((await rows(player.pk)).map((r) => r.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const exported = (await api(file.server.url, "GET", `/api/players/${player.pk}/data`, { token: file.team.developerToken })).body;
    expect(exported.history.map((m: { text: string }) => m.text)).toEqual([
      WORDS,
      "What a lovely story.",
      "what lives under the flowerpot?",
      "What a lovely story.",
    ]);
    // Stored, but sealed: the words are still not in the files in the clear.
    expect((await onDisk(file.server)).includes(Buffer.from("Gwendolyn"))).toBe(false);
  });

  it("follows a consent change on an open socket from its next turn, and a team that does not require consent stores as usual", async () => {
    await requireConsent(true);
    const player = await createPlayer(file.server, file.team);
    await setConsent(player.pk, "granted");
    const probe = await openSession(file.server.url, player.token);
    await probe.interact("first, with consent");
    await setConsent(player.pk, "none");
    await probe.interact("second, consent revoked");
    expect((await rows(player.pk)).length).toBe(2);
    await requireConsent(false);
    await probe.interact("third, the team stopped requiring it");
    probe.close();
    expect((await rows(player.pk)).length).toBe(4);
  });

  it("never sends a player's audio to a recogniser outside the machine without consent, and does with it", async () => {
    await requireConsent(true);
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    const before = stt.transcriptions.length;
    const refused = await voiceTurn(probe);
    expect(refused.find((m) => m.kind === "error")).toMatchObject({ code: "stt_consent_required", error: expect.stringContaining("consent") });
    expect(stt.transcriptions.length).toBe(before);
    expect(await rows(player.pk)).toEqual([]);

    await setConsent(player.pk, "granted");
    const heard = await voiceTurn(probe);
    expect(heard.find((e) => e.event === "transcript")).toMatchObject({ text: stt.transcript });
    expect(stt.transcriptions.length).toBe(before + 1);
    probe.close();
  }, 60_000);
});

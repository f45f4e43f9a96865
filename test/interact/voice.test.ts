/**
 * Voice input end to end: the real server, a fake OpenAI-compatible transcription server on loopback that
 * checks the audio it receives (16 kHz mono 16-bit WAV, the same speech that was sent), and real websocket
 * clients sending speech synthesised with hoot's own TTS in every format a client sends. Also: the transcript
 * drives the reply and is remembered redacted, limits and bad audio give clear errors, barge-in, no audio or
 * transcript on disk or in the logs, the buffer released when the player is deleted, and `stt_unavailable`
 * without a recogniser.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { liveVoiceBuffers } from "../../src/interact/voice.ts";
import { eventually, rememberedOf } from "../compat/socket-helpers.ts";
import { unityChunks } from "../engine/voice-in/helpers/ogg.ts";
import { chunks, envelopeMatch, fixture, mp3Bytes, pcm16Bytes, resampled, speech, wavBytes } from "../engine/voice-in/helpers/speech.ts";
import { startFakeOpenAi } from "../helpers/fake-openai.ts";
import { api, createPlayer, createTeamFixture, serverForFile, startTestServer } from "../helpers/server.ts";
import { type Msg, openSession, type WsProbe } from "../helpers/ws.ts";

const stt = startFakeOpenAi();
const file = serverForFile({ HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url, HOOT_STT_MODEL: "whisper-large-v3", HOOT_WS_MESSAGES_PER_MINUTE: "60" });
afterAll(() => stt.stop());

let spoken: Int16Array;
beforeAll(async () => {
  spoken = await speech();
});

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** Sends every chunk as add_audio and returns the answers. */
async function upload(probe: WsProbe, parts: Uint8Array[], config?: Msg): Promise<Msg[]> {
  const answers: Msg[] = [];
  for (const part of parts) answers.push(await probe.request("add_audio", { audio: b64(part), ...(config ? { config } : {}) }));
  return answers;
}

/** An interact with no `text` field; its whole stream. */
async function voiceTurn(probe: WsProbe, fields: Msg = {}): Promise<{ uid: string; events: Msg[] }> {
  const uid = crypto.randomUUID();
  probe.send({ type: "stream", kind: "interact", uid, context: {}, audio_output: false, ...fields });
  return { uid, events: await probe.collect(uid, 20_000) };
}

const names = (events: Msg[]) => events.map((e) => e.event ?? e.kind);

type Format = [name: string, make: () => Uint8Array[] | Promise<Uint8Array[]>, config: Msg | undefined];
const formats: Format[] = [
  ["16-bit PCM at 16 kHz", () => chunks(pcm16Bytes(spoken), 3200), { mime_type: "audio/pcm", sampling_rate: 16000 }],
  ["16-bit PCM at 48 kHz", () => chunks(pcm16Bytes(resampled(spoken, 48000)), 9600), { mime_type: "audio/pcm", sampling_rate: 48000 }],
  ["WAV 44.1 kHz stereo", () => chunks(wavBytes(resampled(spoken, 44100), 44100, 2, "int16"), 17640), { mime_type: "audio/wav" }],
  ["MP3 from hoot's own encoder", async () => chunks(await mp3Bytes(spoken), 1000), { mime_type: "audio/mpeg" }],
  ["MP3 with an ID3 tag", () => chunks(fixture("puppy.mp3"), 2048), { mime_type: "audio/mpeg" }],
  ["Ogg/Vorbis as Unity sends it", () => unityChunks(fixture("puppy.unity.ogg")), { sampling_rate: 16000, mime_type: "audio/ogg" }],
  ["Ogg/Opus", () => chunks(fixture("puppy.opus.ogg"), 700), { mime_type: "audio/ogg" }],
  [
    "WebM/Opus labelled audio/mpeg at 48 kHz, as the browser SDK sends it",
    () => chunks(fixture("puppy.webm"), 600),
    { sampling_rate: 48000, mime_type: "audio/mpeg" },
  ],
];

describe("voice input over the socket", () => {
  it.each(formats)(
    "%s: the recogniser gets the same speech as 16 kHz mono WAV, and its transcript drives the reply",
    async (_name, make, config) => {
      const player = await createPlayer(file.server, file.team);
      const probe = await openSession(file.server.url, player.token);
      const answers = await upload(probe, await make(), config);
      expect(answers.map((a) => a.kind)).toEqual(answers.map(() => "add_audio"));
      const before = stt.transcriptions.length;
      const { events } = await voiceTurn(probe);
      expect(names(events).slice(0, 2)).toEqual(["interaction_started", "transcript"]);
      expect(names(events).slice(-3)).toEqual(["text_complete", "interaction_complete", "close"]);
      expect(events[1]).toMatchObject({ type: "stream", kind: "interact", event: "transcript", text: "I want to play with my puppy" });
      const heard = stt.transcriptions[before]!;
      expect(heard).toMatchObject({
        wavError: null,
        fileName: "audio.wav",
        fileType: expect.stringContaining("wav"),
        model: "whisper-large-v3",
        language: "en",
        responseFormat: "json",
      });
      expect(Math.abs(heard.samples!.length - spoken.length) / 16).toBeLessThan(120);
      expect(envelopeMatch(spoken, heard.samples!)).toBeGreaterThan(0.9);
      // The transcript is the child's words: remembered as the user's message, answered by the character.
      const remembered = await rememberedOf(file.server, player.pk);
      expect(remembered.at(-2)).toEqual({ role: "user", text: "I want to play with my puppy" });
      expect(remembered.at(-1)!.text).toBe(events.find((e) => e.event === "text_complete")!.text);
      probe.close();
    },
    30_000,
  );

  it("check_turn flips to true when the speech starts and back to false once it has ended", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    const seen: boolean[] = [];
    for (const part of chunks(pcm16Bytes(spoken), 3200)) {
      await probe.request("add_audio", { audio: b64(part), config: { mime_type: "audio/pcm", sampling_rate: 16000 } });
      seen.push((await probe.request("check_turn")).is_user_still_speaking);
    }
    const flips = seen.filter((v, i) => i > 0 && v !== seen[i - 1]).length;
    expect({ first: seen[0], flips, last: seen.at(-1) }).toEqual({ first: false, flips: 2, last: false });
    probe.close();
  }, 30_000);

  it("transcribe answers the text without consuming the buffer; the interact then takes it, and a second gets no_audio", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    await upload(probe, unityChunks(fixture("puppy.unity.ogg")), { sampling_rate: 16000, mime_type: "audio/ogg" });
    const before = stt.transcriptions.length;
    expect(await probe.request("transcribe", { language_code: "en-US" })).toMatchObject({
      type: "response",
      kind: "transcribe",
      text: "I want to play with my puppy",
    });
    expect(await probe.request("transcribe", { language_code: "en-US" })).toMatchObject({ kind: "transcribe" });
    expect(stt.transcriptions[before + 1]!.samples).toEqual(stt.transcriptions[before]!.samples);
    expect(names((await voiceTurn(probe)).events)).toContain("interaction_complete");
    expect(stt.transcriptions[before + 2]!.samples).toEqual(stt.transcriptions[before]!.samples);
    const again = await voiceTurn(probe, { text: "" });
    expect(names(again.events)).toEqual(["error", "close"]);
    expect(again.events[0]).toMatchObject({ type: "stream", kind: "error", code: "no_audio" });
    expect(await probe.request("transcribe")).toMatchObject({ kind: "error", code: "no_audio" });
    probe.close();
  }, 30_000);

  it("an interact without text needs a configuration, and voice requests need an authenticated socket", async () => {
    const player = await createPlayer(file.server, file.team);
    const { WsProbe } = await import("../helpers/ws.ts");
    const probe = await WsProbe.open(file.server.url);
    expect(await probe.request("add_audio", { audio: b64(new Uint8Array(3200)), config: { mime_type: "audio/pcm" } })).toMatchObject({
      kind: "error",
      code: "not_authenticated",
    });
    expect(await probe.request("check_turn")).toMatchObject({ kind: "error", code: "not_authenticated" });
    await probe.request("authenticate", { access_token: player.token });
    await upload(probe, chunks(pcm16Bytes(spoken), 3200), { mime_type: "audio/pcm" });
    const refused = await voiceTurn(probe);
    expect(refused.events[0]).toMatchObject({ kind: "error", code: "not_configured" });
    await probe.request("set_configuration", { config: { prompt: "You are Ollie the owl." } });
    expect(names((await voiceTurn(probe)).events)).toContain("interaction_complete");
    probe.close();
  }, 30_000);
});

describe("voice input: limits and bad audio", () => {
  it("streams a 13 s Unity utterance (over 160 chunks) past a per-minute message limit of 60 without being cut off", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    const long = await speech(
      "Once upon a time there was a little owl who lived in a big oak tree, and every night she flew over the forest to visit her friends the foxes and the rabbits.",
    );
    const parts = chunks(pcm16Bytes(long), 1280);
    expect(parts.length).toBeGreaterThan(160);
    const answers = await upload(probe, parts, { mime_type: "audio/pcm", sampling_rate: 16000 });
    expect(answers.filter((a) => a.kind !== "add_audio")).toEqual([]);
    expect((await probe.request("ping")).kind).toBe("ping");
    probe.close();
  }, 60_000);

  it("refuses bytes of no known format at once (invalid_audio), and a full buffer (audio_buffer_full); the socket stays open and clear_audio always succeeds", async () => {
    const server = await startTestServer({ HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url, HOOT_AUDIO_BUFFER_SECONDS: "2" });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const probe = await openSession(server.url, player.token);
      expect(await probe.request("clear_audio")).toMatchObject({ kind: "clear_audio" });
      const text = new TextEncoder().encode("definitely not a recording, just some words in a text file");
      for (const config of [{ mime_type: "audio/ogg", sampling_rate: 16000 }, { mime_type: "audio/mpeg", sampling_rate: 48000 }, undefined]) {
        expect(await probe.request("add_audio", { audio: b64(text), ...(config ? { config } : {}) })).toMatchObject({
          kind: "error",
          code: "invalid_audio",
          error: expect.stringContaining("could not be read"),
        });
        // One refusal per utterance: the next attempt starts after clear_audio.
        expect(await probe.request("clear_audio")).toMatchObject({ kind: "clear_audio" });
      }
      const answers = await upload(probe, chunks(pcm16Bytes(spoken), 3200), { mime_type: "audio/pcm" });
      expect(answers.slice(0, 20).every((a) => a.kind === "add_audio")).toBe(true);
      expect(answers.at(-1)).toMatchObject({ kind: "error", code: "audio_buffer_full", error: expect.stringContaining("clear_audio") });
      expect(await probe.request("clear_audio")).toMatchObject({ kind: "clear_audio" });
      expect(await probe.request("add_audio", { audio: b64(pcm16Bytes(spoken).subarray(0, 3200)), config: { mime_type: "audio/pcm" } })).toMatchObject({
        kind: "add_audio",
      });
      probe.close();
    } finally {
      await server.close();
    }
  }, 30_000);

  it("past the audio budget a chunk is refused with rate_limited, and the socket stays open", async () => {
    const server = await startTestServer({
      HOOT_STT_PROVIDER: "openai",
      HOOT_STT_BASE_URL: stt.url,
      HOOT_WS_AUDIO_SECONDS_PER_SECOND: "1",
      HOOT_WS_AUDIO_BURST_SECONDS: "1",
    });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const probe = await openSession(server.url, player.token);
      const answers = await upload(probe, chunks(pcm16Bytes(spoken), 3200), { mime_type: "audio/pcm" });
      expect(answers.slice(0, 10).every((a) => a.kind === "add_audio")).toBe(true);
      expect(answers.find((a) => a.kind === "error")).toMatchObject({ code: "rate_limited" });
      expect((await probe.request("ping")).kind).toBe("ping");
      probe.close();
    } finally {
      await server.close();
    }
  }, 30_000);

  it("says stt_unavailable when no recogniser is configured, for transcribe and for an interact without text", async () => {
    const server = await startTestServer({ HOOT_STT_PROVIDER: "none" });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const probe = await openSession(server.url, player.token);
      await upload(probe, chunks(pcm16Bytes(spoken), 3200), { mime_type: "audio/pcm" });
      expect(await probe.request("transcribe")).toMatchObject({ kind: "error", code: "stt_unavailable", error: expect.stringContaining("HOOT_STT_BASE_URL") });
      const turn = await voiceTurn(probe);
      expect(names(turn.events)).toEqual(["error", "close"]);
      expect(turn.events[0]).toMatchObject({ type: "stream", kind: "error", code: "stt_unavailable" });
      expect(await probe.request("check_turn")).toMatchObject({ kind: "check_turn", is_user_still_speaking: false });
      probe.close();
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe("voice input: barge-in", () => {
  it("with barge_in, the child speaking over a reply stops it: its stream closes, the history keeps what was sent, and the next voice turn hears the child", async () => {
    const server = await startTestServer({ HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url, HOOT_LOCAL_TOKENS_PER_SECOND: "20" });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const probe = await openSession(server.url, player.token, { prompt: "You are Ollie the owl.", barge_in: true });
      const uid = crypto.randomUUID();
      probe.send({ type: "stream", kind: "interact", uid, text: "Tell me a long story about a dragon", context: {}, audio_output: true });
      await probe.next((m) => m.uid === uid && m.event === "text");
      const parts = chunks(pcm16Bytes(spoken), 3200);
      // The lead-in silence does not interrupt.
      await upload(probe, parts.slice(0, 4), { mime_type: "audio/pcm" });
      expect(probe.messages.some((m) => m.uid === uid && m.kind === "close")).toBe(false);
      await upload(probe, parts.slice(4), { mime_type: "audio/pcm" });
      // (request() skips the stream's messages: read them from everything received.)
      await eventually(() => probe.messages.some((m) => m.uid === uid && m.kind === "close"));
      const events = probe.messages.filter((m) => m.uid === uid);
      expect(names(events)).not.toContain("interaction_complete");
      expect(names(events)).not.toContain("text_complete");
      const sent = probe.messages
        .filter((m) => m.uid === uid && m.event === "text")
        .map((m) => m.text)
        .join("");
      const remembered = await rememberedOf(server, player.pk);
      expect(remembered.at(-1)).toEqual({ role: "assistant", text: sent });
      const next = await voiceTurn(probe);
      expect(next.events[1]).toMatchObject({ event: "transcript", text: "I want to play with my puppy" });
      probe.close();
    } finally {
      await server.close();
    }
  }, 30_000);
});

/** Every file under `dir` (the database, its WAL and shm, the key), read whole. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push({ path, bytes: readFileSync(path) });
  }
  return out;
}

describe("voice input: privacy", () => {
  it("writes nothing of the audio or the transcript to disk or to the logs (WAL included), and remembers only the redacted words", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hoot-voice-privacy-"));
    // The files hoot writes are SQLite's (on PostgreSQL the database is another server's disk).
    const server = await startTestServer({ HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url }, { dir, backend: "sqlite" });
    const said = "my secret zanzibar quokka lives at 42 Wallaby Way and my phone number is 555 867 5309";
    const { transcript: before } = stt;
    stt.transcript = said;
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const probe = await openSession(server.url, player.token);
      const pcm = pcm16Bytes(spoken);
      await upload(probe, chunks(pcm, 3200), { mime_type: "audio/pcm" });
      await upload(probe, unityChunks(fixture("puppy.unity.ogg")), { sampling_rate: 16000, mime_type: "audio/ogg" });
      expect((await probe.request("transcribe")).text).toBe(said);
      const turn = await voiceTurn(probe);
      expect(turn.events[1]).toMatchObject({ event: "transcript", text: said });
      expect(names(turn.events)).toContain("interaction_complete");
      const remembered = await rememberedOf(server, player.pk);
      expect(remembered.at(-2)!.text).not.toContain("5309");
      expect(remembered.at(-2)!.text).toContain("[phone number]");
      probe.close();
      await probe.closed;

      // Distinctive runs: 64 bytes from the middle of the speech as sent, as decoded (the same, PCM), from the
      // middle of the Ogg upload, and the transcript's words.
      const ogg = fixture("puppy.unity.ogg");
      const needles = [
        Buffer.from(pcm.subarray(pcm.length / 2, pcm.length / 2 + 64)),
        Buffer.from(ogg.subarray(ogg.length / 2, ogg.length / 2 + 64)),
        Buffer.from("zanzibar quokka"),
        Buffer.from("Wallaby"),
        Buffer.from("867 5309"),
      ];
      const scan = (serving: boolean) => {
        const files = filesUnder(dir);
        if (serving) expect(files.some((f) => f.path.endsWith("hoot.db-wal") && f.bytes.length > 0)).toBe(true);
        // The scan does see what is stored in the clear (the team's name), so a miss below means absent.
        expect(files.some((f) => f.bytes.includes(Buffer.from(team.teamName)))).toBe(true);
        for (const { path, bytes } of files)
          for (const needle of needles)
            expect({ path, needle: needle.toString("hex"), found: bytes.includes(needle) }).toEqual({ path, needle: needle.toString("hex"), found: false });
      };
      // While serving (the WAL holds the newest pages), and after the stop has checkpointed it into the database.
      scan(true);
      const logs = server.logs.join("\n");
      for (const word of ["zanzibar", "quokka", "Wallaby", "5309", "puppy"]) expect(logs).not.toContain(word);
      expect(logs).toContain('"voice"');
      await server.close();
      scan(false);
    } finally {
      stt.transcript = before;
      await server.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it("releases the buffered audio when the socket closes and when the player is deleted", async () => {
    const player = await createPlayer(file.server, file.team);
    const base = liveVoiceBuffers();
    const a = await openSession(file.server.url, player.token);
    const b = await openSession(file.server.url, player.token);
    for (const probe of [a, b]) await upload(probe, chunks(pcm16Bytes(spoken), 3200).slice(0, 10), { mime_type: "audio/pcm" });
    expect(liveVoiceBuffers()).toBe(base + 2);
    a.close();
    await a.closed;
    await Bun.sleep(50);
    expect(liveVoiceBuffers()).toBe(base + 1);
    expect((await api(file.server.url, "DELETE", `/api/players/${player.pk}`, { token: file.team.developerToken })).status).toBe(204);
    expect((await b.closed).code).toBe(4403);
    expect(liveVoiceBuffers()).toBe(base);
  }, 30_000);
});

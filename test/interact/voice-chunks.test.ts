/**
 * Voice chunks cut anywhere (issue 24), through the real server: Chromium's MediaRecorder delivers a first chunk
 * of one byte (0x1A, the start of the WebM header), which hoot holds until the format shows; and a chunk refused
 * as invalid_audio is answered once, without turning the rest of its utterance into refusals that would spend
 * the message limit and close the socket.
 */
import { afterAll, describe, expect, it } from "bun:test";
import { chunks, fixture } from "../engine/voice-in/helpers/speech.ts";
import { startFakeOpenAi } from "../helpers/fake-openai.ts";
import { createPlayer, serverForFile } from "../helpers/server.ts";
import { type Msg, openSession, type WsProbe } from "../helpers/ws.ts";

const stt = startFakeOpenAi();
// A low message limit: refusals count toward it, so one refusal per chunk would close the socket.
const file = serverForFile({ HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url, HOOT_WS_MESSAGES_PER_MINUTE: "20" });
afterAll(() => stt.stop());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
// The browser SDK labels WebM/Opus as audio/mpeg at 48 kHz.
const BROWSER = { mime_type: "audio/mpeg", sampling_rate: 48000 };

async function upload(probe: WsProbe, parts: Uint8Array[]): Promise<Msg[]> {
  const answers: Msg[] = [];
  for (const part of parts) answers.push(await probe.request("add_audio", { audio: b64(part), config: BROWSER }));
  return answers;
}

async function voiceTurn(probe: WsProbe): Promise<Msg[]> {
  const uid = crypto.randomUUID();
  probe.send({ type: "stream", kind: "interact", uid, context: {}, audio_output: false });
  return probe.collect(uid, 20_000);
}

describe("voice chunks cut anywhere", () => {
  it("takes Chromium's chunking: a 1-byte first chunk (0x1A), then the rest of the WebM/Opus recording", async () => {
    const webm = fixture("puppy.webm");
    expect(webm[0]).toBe(0x1a);
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    const answers = await upload(probe, [webm.subarray(0, 1), ...chunks(webm.subarray(1), 600)]);
    expect(answers.map((a) => a.code ?? a.kind)).toEqual(answers.map(() => "add_audio"));
    const events = await voiceTurn(probe);
    expect(events.find((e) => e.event === "transcript")).toMatchObject({ text: stt.transcript });
    expect(events.at(-2)).toMatchObject({ event: "interaction_complete" });
    probe.close();
  }, 30_000);

  it("also takes a header cut after two and after three bytes", async () => {
    const webm = fixture("dragon.webm");
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    for (const cut of [2, 3]) {
      const answers = await upload(probe, [webm.subarray(0, 1), webm.subarray(1, cut), ...chunks(webm.subarray(cut), 900)]);
      expect(answers.map((a) => a.code ?? a.kind)).toEqual(answers.map(() => "add_audio"));
      expect((await voiceTurn(probe)).find((e) => e.event === "transcript")).toBeTruthy();
    }
    probe.close();
  }, 30_000);

  it("answers a refused chunk once: the rest of that utterance is not refused chunk by chunk, and the socket stays open", async () => {
    const webm = fixture("puppy.webm");
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    // A header mangled past recognition, then the rest of the recording in more chunks than the message limit.
    const broken = webm.slice(0, 100);
    broken.set([0x00, 0x11, 0x22, 0x33], 0);
    const rest = chunks(webm.subarray(100), 200);
    expect(rest.length).toBeGreaterThan(20);
    const answers = await upload(probe, [broken, ...rest]);
    expect(answers[0]).toMatchObject({ kind: "error", code: "invalid_audio" });
    expect(answers.slice(1).filter((a) => a.kind !== "add_audio")).toEqual([]);
    // Nothing of that utterance was kept: a voice turn has no audio.
    const refused = await voiceTurn(probe);
    expect(refused[0]).toMatchObject({ kind: "error", code: "no_audio" });
    // A new recording after it is heard.
    const again = await upload(probe, [webm.subarray(0, 1), ...chunks(webm.subarray(1), 600)]);
    expect(again.filter((a) => a.kind !== "add_audio")).toEqual([]);
    expect((await voiceTurn(probe)).find((e) => e.event === "transcript")).toMatchObject({ text: stt.transcript });
    expect((await probe.request("ping")).kind).toBe("ping");
    probe.close();
  }, 30_000);
});

/**
 * Voice input in the session state machine, over fakes (a recogniser that implements SttProvider, the fake
 * engine and history): add_audio, clear_audio, check_turn, transcribe and an interact without text, the
 * audio budget beside the message limit, refusals, barge-in, and when the buffered audio is dropped. The
 * audio is real: a sentence spoken by hoot's own TTS, sent as 16-bit PCM chunks.
 */
import { beforeAll, describe, expect, it } from "bun:test";
import { sleep } from "../../src/engine/pipeline/abort.ts";
import { SttFailed } from "../../src/engine/voice-in/errors.ts";
import type { SttProvider, TranscriptionRequest } from "../../src/engine/voice-in/index.ts";
import type { VoicePorts } from "../../src/interact/voice.ts";
import { decodeBase64 } from "../../src/interact/voice.ts";
import { chunks, envelopeMatch, pcm16Bytes, readWav16k, speech } from "../engine/voice-in/helpers/speech.ts";
import { FakeEngine, type Harness, harness, type Msg } from "./helpers/fakes.ts";

/** A recogniser that records what it was given and answers `text` after `delayMs` (or fails). */
class FakeStt implements SttProvider {
  readonly name = "fake";
  readonly calls: { samples: Int16Array; languageCode: string }[] = [];
  constructor(
    public text = "I want to play with my puppy",
    public delayMs = 0,
    public fail: Error | null = null,
  ) {}
  async transcribe(request: TranscriptionRequest): Promise<{ text: string }> {
    this.calls.push({ samples: readWav16k(request.wav), languageCode: request.languageCode });
    if (this.delayMs) await sleep(this.delayMs, request.signal ?? new AbortController().signal);
    if (request.signal?.aborted) throw new SttFailed("the transcription was cancelled", false);
    if (this.fail) throw this.fail;
    return { text: ` ${this.text} ` };
  }
}

function ports(stt: SttProvider, overrides: Partial<VoicePorts> = {}): VoicePorts {
  return {
    stt: () => stt,
    buffer: { maxSeconds: 60, maxBytes: 8 * 1024 * 1024, silenceMs: 700, vadMode: 3 },
    budget: { secondsPerSecond: 2, burstSeconds: 60 },
    ...overrides,
  };
}

let spoken: Int16Array;
/** The sentence as 100 ms chunks of base64 PCM (16 kHz, 16-bit). */
let pcmChunks: string[];

beforeAll(async () => {
  spoken = await speech();
  pcmChunks = chunks(pcm16Bytes(spoken), 3200).map((c) => Buffer.from(c).toString("base64"));
});

const PCM = { mime_type: "audio/pcm", sampling_rate: 16000 };

/** A 100 ms chunk is ~4.3 KB of base64: the harness's 1 KB message limit is raised to the server's default. */
function voiceHarness(options: Parameters<typeof harness>[0] = {}): Harness {
  return harness({ ...options, limits: { maxMessageBytes: 64 * 1024, ...options.limits } });
}

async function ready(options: Parameters<typeof harness>[0] = {}, config: Msg = { prompt: "You are Ollie the owl." }): Promise<Harness> {
  const h = voiceHarness(options);
  await h.request("authenticate", { access_token: "good" });
  await h.request("set_configuration", { config });
  return h;
}

async function upload(h: Harness, audio: string[] = pcmChunks): Promise<Msg[]> {
  const answers: Msg[] = [];
  for (const chunk of audio) answers.push(await h.request("add_audio", { audio: chunk, config: PCM }));
  return answers;
}

/** Waits for the message of `uid` that matches. */
async function answerOf(h: Harness, uid: string, match: (m: Msg) => boolean = () => true, ms = 5000): Promise<Msg> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = h.socket.sent.find((m) => m.uid === uid && match(m));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no answer for ${uid}: ${JSON.stringify(h.socket.sent.slice(-3))}`);
    await Bun.sleep(5);
  }
}

/** Sends an interact with no text and waits for its stream's close. */
async function voiceTurn(h: Harness, uid: string, fields: Msg = {}): Promise<string[]> {
  await h.send({ type: "stream", kind: "interact", uid, context: {}, audio_output: false, ...fields });
  await answerOf(h, uid, (m) => m.kind === "close");
  await h.session.idle();
  return h.socket.stream(uid);
}

describe("session voice input: the buffer", () => {
  it("decodes add_audio, and check_turn is false before speech, true while the child speaks and false once the silence after it is long enough", async () => {
    const h = await ready({ voice: ports(new FakeStt()) });
    expect(await h.request("check_turn")).toMatchObject({ type: "response", kind: "check_turn", is_user_still_speaking: false });
    const seen: boolean[] = [];
    for (const chunk of pcmChunks) {
      expect(await h.request("add_audio", { audio: chunk, config: PCM })).toMatchObject({ type: "response", kind: "add_audio" });
      seen.push((await h.request("check_turn")).is_user_still_speaking);
    }
    // 0.5 s of silence, the sentence, then 1.2 s of silence (more than the 700 ms that ends a turn).
    expect(seen.slice(0, 4)).toEqual([false, false, false, false]);
    expect(seen).toContain(true);
    const firstTrue = seen.indexOf(true);
    const lastTrue = seen.lastIndexOf(true);
    expect(seen.slice(firstTrue, lastTrue + 1).every(Boolean)).toBe(true);
    expect(seen.at(-1)).toBe(false);
    // It flips in the trailing 1.2 s of silence, once 700 ms of it have been heard.
    expect(pcmChunks.length - 1 - lastTrue).toBeLessThan(12);
    h.session.closed();
  });

  it("reads the Python SDK's base64 (a line break every 76 characters and one at the end) and refuses what is not base64", async () => {
    const h = await ready({ voice: ports(new FakeStt()) });
    const encodebytes = (b64: string) => `${b64.match(/.{1,76}/g)!.join("\n")}\n`;
    expect(await h.request("add_audio", { audio: encodebytes(pcmChunks[0]!), config: PCM })).toMatchObject({ kind: "add_audio" });
    expect(decodeBase64(encodebytes(pcmChunks[0]!))).toEqual(decodeBase64(pcmChunks[0]!));
    expect(await h.request("add_audio", { audio: "not base64 at all!", config: PCM })).toMatchObject({
      kind: "error",
      code: "invalid_audio",
      error: expect.stringContaining("base64"),
    });
    h.session.closed();
  });

  it("refuses bytes of no known format at once with invalid_audio (the label alone does not make them audio), and keeps what was buffered", async () => {
    const stt = new FakeStt();
    const h = await ready({ voice: ports(stt) });
    await upload(h);
    const garbage = Buffer.from("this is a text file, not a recording").toString("base64");
    for (const mime_type of ["audio/ogg", "audio/mpeg", "audio/wav", undefined]) {
      const answer = await h.request("add_audio", { audio: garbage, config: mime_type ? { mime_type } : undefined });
      expect({ mime_type, answer }).toMatchObject({ mime_type, answer: { kind: "error", code: "invalid_audio" } });
    }
    expect(await h.request("add_audio", { audio: "", config: PCM })).toMatchObject({ kind: "error", code: "invalid_audio" });
    expect((await h.request("transcribe", {})).kind).not.toBe("error");
    expect(h.socket.closedWith).toBeNull();
    h.session.closed();
  });

  it("refuses a chunk past the buffer's limit with audio_buffer_full; clear_audio empties it, and always succeeds", async () => {
    const h = await ready({ voice: ports(new FakeStt(), { buffer: { maxSeconds: 1, maxBytes: 1 << 20, silenceMs: 700, vadMode: 3 } }) });
    expect(await h.request("clear_audio")).toMatchObject({ kind: "clear_audio" });
    const answers = await upload(h, pcmChunks.slice(0, 12));
    expect(answers.slice(0, 10).every((a) => a.kind === "add_audio")).toBe(true);
    expect(answers.slice(10)).toEqual([
      expect.objectContaining({ kind: "error", code: "audio_buffer_full" }),
      expect.objectContaining({ kind: "error", code: "audio_buffer_full" }),
    ]);
    expect(await h.request("clear_audio")).toMatchObject({ kind: "clear_audio" });
    expect(await h.request("clear_audio")).toMatchObject({ kind: "clear_audio" });
    expect((await upload(h, pcmChunks.slice(0, 3))).map((a) => a.kind)).toEqual(["add_audio", "add_audio", "add_audio"]);
    h.session.closed();
  });

  it("needs an authenticated socket for every voice request, but not a configuration (except an interact)", async () => {
    const h = voiceHarness({ voice: ports(new FakeStt()) });
    for (const [kind, fields] of [
      ["add_audio", { audio: pcmChunks[0], config: PCM }],
      ["clear_audio", {}],
      ["check_turn", {}],
      ["transcribe", { language_code: "en" }],
    ] as const) {
      expect(await h.request(kind, fields)).toMatchObject({ kind: "error", code: "not_authenticated", error: "session is not authenticated" });
    }
    await h.request("authenticate", { access_token: "good" });
    expect(await h.request("add_audio", { audio: pcmChunks[0]!, config: PCM })).toMatchObject({ kind: "add_audio" });
    await h.send({ type: "stream", kind: "interact", uid: "v1", context: {} });
    expect(h.socket.stream("v1")).toEqual(["error", "close"]);
    expect(h.socket.sent.find((m) => m.uid === "v1")).toMatchObject({ code: "not_configured" });
    h.session.closed();
  });
});

describe("session voice input: limits", () => {
  it("add_audio does not count against the per-minute message limit; refused chunks do", async () => {
    const h = await ready({ voice: ports(new FakeStt()), limits: { messagesPerMinute: 5 } });
    // authenticate and set_configuration used 2 of the 5.
    const answers = await upload(h);
    expect(answers.every((a) => a.kind === "add_audio")).toBe(true);
    expect(answers.length).toBeGreaterThan(30);
    expect(h.socket.closedWith).toBeNull();
    const bad = Buffer.from("nothing audio about it").toString("base64");
    for (let i = 0; i < 3; i++) expect(await h.request("add_audio", { audio: bad })).toMatchObject({ code: "invalid_audio" });
    expect(h.socket.closedWith).toBeNull();
    await h.send({ type: "request", kind: "add_audio", uid: "last", audio: bad });
    expect(h.socket.closedWith?.code).toBe(4429);
    expect(h.socket.sent.at(-1)).toMatchObject({ type: "error", code: "rate_limited" });
  });

  it("past the audio budget a chunk is refused with rate_limited and not buffered; the socket stays open", async () => {
    const stt = new FakeStt();
    // One second of burst, refilled at one audio second per second.
    const h = await ready({ voice: ports(stt, { budget: { secondsPerSecond: 1, burstSeconds: 1 } }) });
    const answers = await upload(h, pcmChunks.slice(0, 30));
    const refused = answers.filter((a) => a.kind === "error");
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatchObject({ code: "rate_limited", error: expect.stringContaining("slow down") });
    expect(h.socket.closedWith).toBeNull();
    // What was accepted is what is buffered.
    await h.send({ type: "request", kind: "transcribe", uid: "t" });
    await answerOf(h, "t");
    expect(stt.calls.at(-1)!.samples.length).toBe((answers.length - refused.length) * 1600);
    // Refilled: a client that waits is served again.
    await Bun.sleep(250);
    expect(await h.request("add_audio", { audio: pcmChunks[20]!, config: PCM })).toMatchObject({ kind: "add_audio" });
    h.session.closed();
  });
});

describe("session voice input: transcription", () => {
  it("transcribe answers the text and keeps the buffer; an interact without text takes it: interaction_started, transcript, then the reply to those words", async () => {
    const stt = new FakeStt();
    const h = await ready({ voice: ports(stt) }, { prompt: "You are Ollie the owl.", language_code: "fi-FI" });
    await upload(h);
    await h.send({ type: "request", kind: "transcribe", uid: "t1", language_code: "en-GB" });
    expect(await answerOf(h, "t1")).toMatchObject({ type: "response", kind: "transcribe", text: "I want to play with my puppy" });
    expect(stt.calls[0]!.languageCode).toBe("en-GB");
    // The recogniser got the sentence, as 16 kHz mono 16-bit WAV.
    expect(envelopeMatch(stt.calls[0]!.samples, spoken)).toBeGreaterThan(0.98);
    await h.send({ type: "request", kind: "transcribe", uid: "t2" });
    expect(await answerOf(h, "t2")).toMatchObject({ kind: "transcribe" });
    expect(stt.calls[1]!.languageCode).toBe("fi-FI");
    expect(stt.calls[1]!.samples).toEqual(stt.calls[0]!.samples);

    const events = await voiceTurn(h, "v1", { language_code: "en" });
    expect(events).toEqual(["interaction_started", "transcript", "text", "text", "text_complete", "interaction_complete", "close"]);
    expect(h.socket.sent.find((m) => m.uid === "v1" && m.event === "transcript")).toMatchObject({
      type: "stream",
      kind: "interact",
      text: "I want to play with my puppy",
    });
    expect(stt.calls[2]!.languageCode).toBe("en");
    expect(h.engine.inputs[0]!.text).toBe("I want to play with my puppy");
    expect(h.history.records[0]!.turn).toEqual({ userText: "I want to play with my puppy", reply: "Hi there." });
    // Consumed: nothing is buffered any more.
    expect((await h.request("check_turn")).is_user_still_speaking).toBe(false);
    expect(await voiceTurn(h, "v2")).toEqual(["error", "close"]);
    expect(h.socket.sent.find((m) => m.uid === "v2")).toMatchObject({ type: "stream", kind: "error", code: "no_audio" });
    expect(await h.request("transcribe")).toMatchObject({ kind: "error", code: "no_audio" });
    h.session.closed();
  });

  it("puts the transcript through the same safety checks as typed text: the model and the history get it redacted, the device gets it as heard", async () => {
    const said = "my phone number is 555 123 4567 and my email is mia.jones@example.com";
    const h = await ready({ voice: ports(new FakeStt(said)) });
    await upload(h);
    const events = await voiceTurn(h, "v1");
    expect(events.slice(0, 2)).toEqual(["interaction_started", "transcript"]);
    expect(h.socket.sent.find((m) => m.event === "transcript")!.text).toBe(said);
    expect(h.socket.sent.filter((m) => m.event === "safety_policy").length).toBeGreaterThan(0);
    const toModel = h.engine.inputs[0]?.text ?? "";
    const stored = h.history.records[0]!.turn.userText ?? "";
    for (const text of [toModel, stored]) {
      expect(text).not.toContain("4567");
      expect(text).not.toContain("example.com");
    }
    expect(stored).toContain("[phone number]");
    h.session.closed();
  });

  it("does not ask the recogniser about audio with no speech in it: the transcript is empty and the character carries on, as on '.'", async () => {
    const stt = new FakeStt();
    const h = await ready({ voice: ports(stt) });
    const silence = chunks(new Uint8Array(32000), 3200).map((c) => Buffer.from(c).toString("base64"));
    await upload(h, silence);
    await h.send({ type: "request", kind: "transcribe", uid: "t1" });
    expect(await answerOf(h, "t1")).toMatchObject({ kind: "transcribe", text: "" });
    expect(await voiceTurn(h, "v1")).toEqual(["interaction_started", "transcript", "text", "text", "text_complete", "interaction_complete", "close"]);
    expect(h.socket.sent.find((m) => m.event === "transcript")!.text).toBe("");
    expect(stt.calls).toHaveLength(0);
    expect(h.engine.inputs[0]!.text).toBe(".");
    expect(h.history.records[0]!.turn.userText).toBeNull();
    h.session.closed();
  });

  it("refuses the interact with a stream error when the recogniser fails (stt_failed) or there is none (stt_unavailable): nothing started, nothing saved", async () => {
    const stt = new FakeStt("x", 0, new SttFailed("the transcription service answered HTTP 500", true));
    const h = await ready({ voice: ports(stt) });
    await upload(h);
    expect(await voiceTurn(h, "v1")).toEqual(["error", "close"]);
    expect(h.socket.sent.find((m) => m.uid === "v1")).toMatchObject({
      type: "stream",
      kind: "error",
      code: "stt_failed",
      error: expect.stringContaining("HTTP 500"),
    });
    await upload(h);
    await h.send({ type: "request", kind: "transcribe", uid: "t1" });
    expect(await answerOf(h, "t1")).toMatchObject({ type: "response", kind: "error", code: "stt_failed" });
    expect(h.engine.inputs).toHaveLength(0);
    expect(h.history.records).toHaveLength(0);
    h.session.closed();

    // A session built without a recogniser.
    const none = await ready();
    await upload(none);
    expect(await voiceTurn(none, "v2")).toEqual(["error", "close"]);
    expect(none.socket.sent.find((m) => m.uid === "v2")).toMatchObject({ code: "stt_unavailable", error: expect.stringContaining("HOOT_STT_BASE_URL") });
    none.session.closed();
  });

  it("a voice turn interrupted while it is being transcribed sends only its close and saves nothing", async () => {
    const stt = new FakeStt("hello", 2000);
    const h = await ready({ voice: ports(stt) });
    await upload(h);
    await h.send({ type: "stream", kind: "interact", uid: "v1", context: {} });
    await Bun.sleep(50);
    expect(await h.request("interrupt", { target_uid: "v1" })).toMatchObject({ kind: "interrupt", interrupted: true });
    await h.session.idle();
    expect(h.socket.stream("v1")).toEqual(["close"]);
    expect(h.history.records).toHaveLength(0);
    expect(h.engine.inputs).toHaveLength(0);
    h.session.closed();
  });
});

describe("session voice input: when audio is dropped", () => {
  it("interrupt drops the buffered audio", async () => {
    const h = await ready({ voice: ports(new FakeStt()) });
    await upload(h, pcmChunks.slice(0, 15));
    expect((await h.request("check_turn")).is_user_still_speaking).toBe(true);
    expect(await h.request("interrupt", { target_uid: "nothing-running" })).toMatchObject({ kind: "interrupt", interrupted: false });
    expect((await h.request("check_turn")).is_user_still_speaking).toBe(false);
    expect(await h.request("transcribe")).toMatchObject({ kind: "error", code: "no_audio" });
    h.session.closed();
  });

  it("the socket's close drops it, and a later chunk is not taken", async () => {
    const h = await ready({ voice: ports(new FakeStt()) });
    await upload(h, pcmChunks.slice(0, 15));
    h.session.closed();
    const before = h.socket.sent.length;
    await h.send({ type: "request", kind: "add_audio", uid: "late", audio: pcmChunks[16], config: PCM });
    expect(h.socket.sent.length).toBe(before);
  });
});

describe("session voice input: barge-in", () => {
  /** A reply that streams for a while (a fragment every 100 ms). */
  const slowReply = () =>
    new FakeEngine(
      [...Array.from({ length: 30 }, (_, i) => ({ type: "text" as const, text: `word${i} ` })), { type: "complete", text: "", audio: false }],
      100,
    );

  it("with barge_in, the child speaking while the reply streams stops it; the history keeps what was sent, and the audio stays for the next turn", async () => {
    const h = await ready({ voice: ports(new FakeStt()), engine: slowReply() }, { prompt: "You are Ollie the owl.", barge_in: true });
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "Tell me a long story", context: {} });
    await answerOf(h, "i1", (m) => m.event === "text");
    // Silence does not interrupt; speech does.
    await upload(h, pcmChunks.slice(0, 4));
    expect(h.socket.stream("i1")).not.toContain("close");
    await upload(h, pcmChunks.slice(4, 20));
    await answerOf(h, "i1", (m) => m.kind === "close");
    await h.session.idle();
    const events = h.socket.stream("i1");
    expect(events).not.toContain("interaction_complete");
    const sent = h.socket.sent
      .filter((m) => m.uid === "i1" && m.event === "text")
      .map((m) => m.text)
      .join("");
    expect(h.history.records[0]!.turn).toEqual({ userText: "Tell me a long story", reply: sent });
    expect(sent.split(" ").length).toBeLessThan(30);
    expect((await h.request("check_turn")).is_user_still_speaking).toBe(true);
    h.session.closed();
  });

  it("without barge_in (the default), the reply goes on while the child speaks", async () => {
    const h = await ready({ voice: ports(new FakeStt()), engine: slowReply() });
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "Tell me a long story", context: {} });
    await answerOf(h, "i1", (m) => m.event === "text");
    await upload(h, pcmChunks.slice(0, 20));
    await answerOf(h, "i1", (m) => m.kind === "close", 10_000);
    expect(h.socket.stream("i1")).toContain("interaction_complete");
    h.session.closed();
  });
});

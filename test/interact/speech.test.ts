import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { decodeMp3, decodePcm16, expectUnityFrames, rms } from "../engine/tts/helpers.ts";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { type Msg, openSession } from "../helpers/ws.ts";

let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  server = await startTestServer({ HOOT_TTS_WORKERS: "2" });
  team = await createTeamFixture(server);
});
afterAll(() => server.close());

const bytes = (e: Msg) => new Uint8Array(Buffer.from(e.audio, "base64"));

/** Audio events grouped by the sentence they speak, in order. */
function bySentence(events: Msg[]): { text: string; data: Uint8Array }[] {
  const out: { text: string; parts: Uint8Array[] }[] = [];
  for (const e of events.filter((x) => x.event === "audio")) {
    if (out.at(-1)?.text !== e.text) out.push({ text: e.text, parts: [] });
    out.at(-1)!.parts.push(bytes(e));
  }
  return out.map((s) => ({ text: s.text, data: new Uint8Array(Buffer.concat(s.parts)) }));
}

async function talk(config: Msg, text: string, fields: Msg = {}) {
  const player = await createPlayer(server, team);
  const probe = await openSession(server.url, player.token, { prompt: "You are Ollie the owl, a kind friend.", ...config });
  const result = await probe.interact(text, { audio_output: true, ...fields }, 30_000);
  probe.close();
  return result.events;
}

describe("speech over the interact socket", () => {
  it("speaks the reply as 44.1 kHz MPEG-1 MP3: every message decodes on its own, one stream per sentence, in order", async () => {
    const events = await talk({}, "Tell me a story about a dragon");
    const kinds = events.map((e) => e.event ?? e.kind);
    const audio = events.filter((e) => e.event === "audio");
    expect(audio.length).toBeGreaterThan(3);
    // Text is never held back waiting for audio; audio_complete follows the last audio.
    expect(kinds.indexOf("text")).toBeLessThan(kinds.indexOf("audio"));
    expect(kinds.lastIndexOf("audio")).toBeLessThan(kinds.indexOf("audio_complete"));
    expect(kinds.indexOf("audio_complete")).toBeLessThan(kinds.indexOf("interaction_complete"));
    expect(audio.map((e) => e.seq)).toEqual(audio.map((_, i) => i));
    for (const e of audio) {
      expect(e.mime_type).toBe("audio/mpeg");
      expect(e.sample_rate).toBe(44100);
      // Whole frames only, each starting FF FB: MPEG-1 Layer III, no CRC, 44.1 kHz, mono (what Unity plays).
      const frames = expectUnityFrames(bytes(e));
      expect(frames).toBeGreaterThan(0);
      // Decoded alone, with a fresh decoder, as a client that decodes message by message does.
      const alone = await decodeMp3(bytes(e));
      expect(alone.errors).toBe(0);
      expect(alone.sampleRate).toBe(44100);
      expect(alone.samples.length).toBe(frames * 1152);
    }
    const reply = events.find((e) => e.event === "text_complete")!.text as string;
    const sentences = bySentence(events);
    expect(sentences.length).toBeGreaterThan(1);
    expect(
      sentences
        .map((s) => s.text)
        .join(" ")
        .replace(/\s+/g, " "),
    ).toBe(reply.trim().replace(/\s+/g, " "));
    for (const s of sentences) {
      expect(String.fromCharCode(...s.data.slice(0, 3))).not.toBe("ID3");
      const decoded = await decodeMp3(s.data);
      expect(decoded.errors).toBe(0);
      const seconds = decoded.samples.length / decoded.sampleRate;
      const words = s.text.split(/\s+/).filter(Boolean).length;
      expect(seconds).toBeGreaterThan(words * 0.12);
      expect(seconds).toBeLessThan(words * 1.0 + 1);
      expect(rms(decoded.samples)).toBeGreaterThan(0.01);
    }
  }, 30_000);

  it("sends raw 16-bit PCM when asked, with a length that matches the sample rate", async () => {
    const events = await talk({ audio_format: "pcm16" }, "Hello Ollie!");
    const audio = events.filter((e) => e.event === "audio");
    expect(audio.length).toBeGreaterThan(0);
    let samples = 0;
    for (const e of audio) {
      expect(e.mime_type).toMatch(/^audio\/(pcm|L16)/);
      const b = bytes(e);
      expect(b.length % 2).toBe(0);
      samples += b.length / 2;
    }
    const all = decodePcm16(new Uint8Array(Buffer.concat(audio.map(bytes))));
    expect(rms(all)).toBeGreaterThan(0.01);
    const seconds = samples / audio[0]!.sample_rate;
    const words = (events.find((e) => e.event === "text_complete")!.text as string).split(/\s+/).length;
    expect(seconds).toBeGreaterThan(words * 0.12);
    expect(seconds).toBeLessThan(words * 1.0 + 1);
  }, 30_000);

  it("speaks slower at speed 0.7 than at 1.2", async () => {
    const duration = async (speed: number) => {
      const events = await talk({ voice_profile: { speed }, audio_format: "pcm16" }, "What is 3 plus 4?");
      const audio = events.filter((e) => e.event === "audio");
      return audio.reduce((sum, e) => sum + bytes(e).length / 2, 0) / audio[0]!.sample_rate;
    };
    const slow = await duration(0.7);
    const fast = await duration(1.2);
    expect(slow / fast).toBeGreaterThan(1.3);
  }, 30_000);

  it("speaks an unknown voice (another provider's) with the default voice, and a listed one with that voice", async () => {
    // A fresh player each time, so the local model's reply (and so the speech) is the same text.
    const spoken = async (voice_profile: Msg) =>
      (await talk({ voice_profile }, "hi"))
        .filter((e) => e.event === "audio")
        .map((e) => e.audio as string)
        .join("|");
    const voices = server.engine.voices();
    expect(voices.length).toBeGreaterThan(1);
    const byDefault = await spoken({});
    expect(byDefault.length).toBeGreaterThan(0);
    expect(await spoken({ voice_id: "darth", provider: "elevenlabs", stability: 0.5 })).toBe(byDefault);
    expect(await spoken({ voice_id: voices[0] })).toBe(byDefault);
    expect(await spoken({ voice_id: voices[1] })).not.toBe(byDefault);
  }, 60_000);

  it("stops audio at once on interrupt: nothing for that stream after its close", async () => {
    const slow = await startTestServer({ HOOT_LOCAL_TOKENS_PER_SECOND: "0", HOOT_TTS_WORKERS: "1" });
    try {
      const t = await createTeamFixture(slow);
      const player = await createPlayer(slow, t);
      const probe = await openSession(slow.url, player.token);
      const uid = crypto.randomUUID();
      probe.send({ type: "stream", kind: "interact", uid, text: "Tell me a long story about space", context: {}, audio_output: true });
      await probe.next((m) => m.uid === uid && m.event === "audio", 15_000);
      const asked = performance.now();
      const answer = await probe.request("interrupt", { target_uid: uid });
      expect(answer.interrupted).toBe(true);
      expect(performance.now() - asked).toBeLessThan(1000);
      await Bun.sleep(300);
      const mine = probe.messages.filter((m) => m.uid === uid);
      const closeAt = mine.findIndex((m) => m.kind === "close");
      expect(closeAt).toBeGreaterThan(-1);
      expect(mine.slice(closeAt + 1)).toEqual([]);
      expect(mine.some((m) => m.event === "audio_complete" || m.event === "interaction_complete")).toBe(false);
      // The workers are free for the next turn.
      const next = await probe.interact("Hello!", { audio_output: true }, 15_000);
      expect(next.events.some((e) => e.event === "audio")).toBe(true);
      probe.close();
    } finally {
      await slow.close();
    }
  }, 30_000);

  it("gives every one of many simultaneous sessions its audio", async () => {
    const players = await Promise.all(Array.from({ length: 8 }, () => createPlayer(server, team)));
    const results = await Promise.all(
      players.map(async (p, i) => {
        const probe = await openSession(server.url, p.token);
        const { events } = await probe.interact(i % 2 ? "Hello!" : "I like cats", { audio_output: true }, 30_000);
        probe.close();
        return events;
      }),
    );
    for (const events of results) {
      expect(events.filter((e) => e.event === "audio").length).toBeGreaterThan(0);
      expect(events.some((e) => e.event === "audio_complete")).toBe(true);
      expect(events.some((e) => e.event === "interaction_error")).toBe(false);
    }
  }, 30_000);

  it("sends 44.1 kHz MPEG-1 from the OpenAI-compatible provider too, whatever format the service itself prefers", async () => {
    // A loopback service that speaks /v1/audio/speech: 24 kHz PCM when asked for "pcm", and otherwise the
    // 24 kHz MPEG-2 it would pick itself (here: bytes that are not MP3 at all, so passing them on would show).
    const asked: string[] = [];
    const service = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const body = (await req.json()) as { input: string; response_format: string };
        asked.push(body.response_format);
        if (body.response_format !== "pcm") return new Response(new Uint8Array(4000).fill(0x55), { headers: { "content-type": "audio/mpeg" } });
        const pcm = new Int16Array(Math.round(24000 * (0.3 + body.input.length / 20)));
        for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / 24000));
        return new Response(new Uint8Array(pcm.buffer), { headers: { "content-type": "audio/pcm" } });
      },
    });
    const remote = await startTestServer({
      HOOT_TTS_PROVIDER: "openai",
      HOOT_TTS_BASE_URL: `http://127.0.0.1:${service.port}/v1`,
      HOOT_TTS_API_KEY: "sk-test",
    });
    try {
      const t = await createTeamFixture(remote);
      const player = await createPlayer(remote, t);
      const probe = await openSession(remote.url, player.token, { prompt: "You are Ollie the owl, a kind friend.", voice_profile: { voice_id: "nova" } });
      const { events } = await probe.interact("Tell me about owls", { audio_output: true }, 30_000);
      probe.close();
      const audio = events.filter((e) => e.event === "audio");
      expect(audio.length).toBeGreaterThan(0);
      expect(asked.every((format) => format === "pcm")).toBe(true);
      for (const e of audio) {
        expect([e.mime_type, e.sample_rate]).toEqual(["audio/mpeg", 44100]);
        const frames = expectUnityFrames(bytes(e));
        const alone = await decodeMp3(bytes(e));
        expect(alone.errors).toBe(0);
        expect(alone.samples.length).toBe(frames * 1152);
        expect(rms(alone.samples)).toBeGreaterThan(0.05);
      }
      expect(events.some((e) => e.event === "audio_complete")).toBe(true);
    } finally {
      await remote.close();
      service.stop(true);
    }
  }, 30_000);

  it("sends no audio when audio_output is false", async () => {
    const events = await talk({}, "Hello!", { audio_output: false });
    expect(events.some((e) => e.event === "audio" || e.event === "audio_complete")).toBe(false);
  });
});

describe("speech admission over the interact socket", () => {
  it("tells a turn the speech engine cannot admit up front, before any text, and still ends it with audio_complete", async () => {
    // One turn may hold speech at a time: the second of two simultaneous turns is refused speech.
    const busy = await startTestServer({ HOOT_TTS_WORKERS: "1", HOOT_TTS_MAX_TURNS: "1" });
    try {
      const busyTeam = await createTeamFixture(busy);
      const [a, b] = await Promise.all([createPlayer(busy, busyTeam), createPlayer(busy, busyTeam)]);
      const first = await openSession(busy.url, a.token);
      const second = await openSession(busy.url, b.token);
      const long = "Tell me a long story about a dragon and a castle";
      const running = first.interact(long, { audio_output: true }, 30_000);
      await Bun.sleep(20);
      const refused = await second.interact(long, { audio_output: true }, 30_000);
      const admitted = await running;
      first.close();
      second.close();
      const kinds = refused.events.map((e) => e.event ?? e.kind);
      expect(kinds).toContain("speech_unavailable");
      expect(kinds.indexOf("speech_unavailable")).toBeLessThan(kinds.indexOf("text"));
      expect(refused.events.find((e) => e.event === "speech_unavailable")).toMatchObject({ code: "speech_busy" });
      expect(kinds).not.toContain("audio");
      expect(kinds).toContain("audio_complete");
      expect(kinds).toContain("interaction_complete");
      expect(refused.events.some((e) => e.kind === "error")).toBe(false);
      const admittedKinds = admitted.events.map((e) => e.event ?? e.kind);
      expect(admittedKinds).not.toContain("speech_unavailable");
      expect(admittedKinds).toContain("audio");
    } finally {
      await busy.close();
    }
  });
});

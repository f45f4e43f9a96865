/**
 * Speech marks through the real server (PROTOCOL.md section 6): a scripted model on loopback (so the words are
 * known), the real offline voice (flite in workers), a real SQLite file, real sockets. The marks are checked
 * against the audio as a client decodes it: mpg123 for MP3, the raw samples for pcm16, energy per 10 ms frame.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { decodeMp3, decodePcm16, expectMarksMatchSound, expectWellFormed } from "../engine/tts/helpers.ts";
import { type FakeOpenAi, fakeProviderEnv, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { type Msg, openSession } from "../helpers/ws.ts";

let fake: FakeOpenAi;
let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  fake = startFakeOpenAi();
  server = await startTestServer({ HOOT_LLM_PROVIDER: "openai", HOOT_LLM_BASE_URL: fake.url, HOOT_LLM_API_KEY: "sk-fake", HOOT_TTS_WORKERS: "2" });
  team = await createTeamFixture(server);
});
afterAll(async () => {
  await server.close();
  await fake.stop();
});

const PROMPT = "You are Ollie the owl, a kind friend.";
const STORY =
  "Once upon a time, a little owl named Hoot lived in a tall oak tree. Every night she counted 25 stars! " +
  "Her friend, Dr. Badger, said: “Don’t worry, the moon always comes back.” Isn't that lovely?";
const TURNS = [STORY, "Hello there, my friend! What shall we play today?", "Cats purr when they are happy, and they sleep for 12 hours a day."];

/** The model's reply, one token per word. */
function say(text: string): string[] {
  return text.split(/(?= )/);
}

async function session(config: Msg = {}) {
  const player = await createPlayer(server, team);
  return openSession(server.url, player.token, { prompt: PROMPT, ...config });
}

const audioOf = (events: Msg[]) => events.filter((e) => e.event === "audio");
const bytes = (e: Msg) => new Uint8Array(Buffer.from(e.audio, "base64"));
/** The words a client shows: the reply's whitespace-separated tokens, exactly as written (PROTOCOL.md section 6). */
const wordsOf = (text: string) => text.split(/\s+/).filter((w) => w !== "");
/** A reply with what a voice does not say as written: markdown, emoji, a symbol between letters, decimal numbers. */
const MARKED_UP = "I *love* cats 🐱 so much! Is a<b true? 🎉 Pi is about 3.14, and **Dr. Owl** says `hello` to 2.5 friends.";

interface Sentence {
  samples: Float32Array;
  rate: number;
  words: { text: string; start_time_sec: number; duration_sec: number }[];
  visemes: { viseme: string; start_time_sec: number; duration_sec: number }[];
}

/** Each sentence's decoded audio with its messages' marks put on one clock (pcm16 slices are joined). */
async function sentences(events: Msg[]): Promise<Sentence[]> {
  const out: Sentence[] = [];
  let current: { text: string; parts: Float32Array[]; rate: number; at: number; words: Sentence["words"]; visemes: Sentence["visemes"] } | null = null;
  const finish = () => {
    if (!current) return;
    const total = current.parts.reduce((n, p) => n + p.length, 0);
    const samples = new Float32Array(total);
    let offset = 0;
    for (const part of current.parts) {
      samples.set(part, offset);
      offset += part.length;
    }
    out.push({ samples, rate: current.rate, words: current.words, visemes: current.visemes });
  };
  for (const e of audioOf(events)) {
    const decoded = e.mime_type === "audio/mpeg" ? await decodeMp3(bytes(e)) : { samples: decodePcm16(bytes(e)), sampleRate: e.sample_rate, errors: 0 };
    expect(decoded.errors).toBe(0);
    // duration_sec is the decoded length, to the sample.
    expect(e.duration_sec).toBeCloseTo(decoded.samples.length / decoded.sampleRate, 6);
    expectWellFormed({ subtitles: e.subtitles ?? [], visemes: e.visemes }, e.duration_sec);
    if (e.mime_type === "audio/mpeg" || current?.text !== e.text) {
      finish();
      current = { text: e.text, parts: [], rate: decoded.sampleRate, at: 0, words: [], visemes: [] };
    }
    const at = current!.at;
    current!.parts.push(decoded.samples);
    for (const w of e.subtitles ?? []) current!.words.push({ ...w, start_time_sec: w.start_time_sec + at });
    for (const v of e.visemes) current!.visemes.push({ ...v, start_time_sec: v.start_time_sec + at });
    current!.at += e.duration_sec;
  }
  finish();
  return out;
}

/** The sound agrees with the marks: loud frames fall in mouth shapes, and every word holds voiced frames. */
function expectSentenceMatchesSound(sentence: Sentence): void {
  expectMarksMatchSound(sentence.samples, sentence.rate, { subtitles: sentence.words, visemes: sentence.visemes });
}

describe("speech marks from the offline voice", () => {
  it.each(["mp3", "pcm16"])(
    "times the words and visemes of several turns against the decoded %s audio",
    async (format) => {
      const probe = await session({ subtitles: true, visemes: true, audio_format: format });
      for (const text of TURNS) {
        fake.plan(say(text));
        const { events } = await probe.interact("tell me something", { audio_output: true }, 30_000);
        const audio = audioOf(events);
        expect(audio.length).toBeGreaterThan(0);
        for (const e of audio) expect(e.marks).toBe("engine");
        const reply = events.find((e) => e.event === "text_complete")!.text as string;
        // The captions are the reply's own words, each once, in order (markup aside, nothing else).
        expect(audio.flatMap((e) => e.subtitles.map((w: Msg) => w.text))).toEqual(wordsOf(reply));
        for (const sentence of await sentences(events)) expectSentenceMatchesSound(sentence);
      }
      probe.close();
    },
    60_000,
  );

  it("sends no marks unless asked, but always duration_sec", async () => {
    const probe = await session();
    fake.plan(say("Hello there, my friend!"));
    const { events } = await probe.interact("hi", { audio_output: true }, 30_000);
    probe.close();
    const audio = audioOf(events);
    expect(audio.length).toBeGreaterThan(0);
    for (const e of audio) {
      expect(e.duration_sec).toBeGreaterThan(0.3);
      expect(Object.keys(e).filter((key) => ["subtitles", "visemes", "marks"].includes(key))).toEqual([]);
    }
  }, 30_000);

  it("lets one interact turn marks on or off for that turn only", async () => {
    const probe = await session({ visemes: true });
    const keys = async (fields: Msg) => {
      fake.plan(say("Hello there!"));
      const { events } = await probe.interact("hi", { audio_output: true, ...fields }, 30_000);
      return audioOf(events).map((e) => ["subtitles", "visemes", "marks"].filter((key) => key in e).join(","));
    };
    expect(await keys({})).toEqual(["visemes,marks"]);
    expect(await keys({ subtitles: true })).toEqual(["subtitles,visemes,marks"]);
    expect(await keys({ visemes: false })).toEqual([""]);
    expect(await keys({})).toEqual(["visemes,marks"]);
    probe.close();
  }, 30_000);

  it("sends no marks for an interrupted story after its close", async () => {
    const probe = await session({ subtitles: true, visemes: true });
    fake.tokenDelayMs = 40;
    fake.plan(say(`${STORY} ${STORY} ${STORY}`));
    try {
      const uid = crypto.randomUUID();
      probe.send({ type: "stream", kind: "interact", uid, text: "a long story", context: {}, audio_output: true });
      const first = await probe.next((m) => m.uid === uid && m.event === "audio", 20_000);
      expect(first.subtitles.length).toBeGreaterThan(0);
      await probe.request("interrupt", { target_uid: uid });
      // The next turn's end shows that everything of the interrupted one has arrived.
      fake.tokenDelayMs = 0;
      fake.plan(say("Okay."));
      await probe.interact("stop", { audio_output: true }, 30_000);
      const mine = probe.messages.filter((m) => m.uid === uid);
      const closeAt = mine.findIndex((m) => m.kind === "close");
      expect(closeAt).toBeGreaterThan(-1);
      expect(mine.slice(closeAt + 1)).toEqual([]);
      const shown = mine
        .filter((m) => m.event === "text")
        .map((m) => m.text)
        .join("");
      // Never more words in the captions than in the text that was shown.
      const captioned = audioOf(mine).flatMap((e) => e.subtitles.map((w: Msg) => w.text));
      expect(wordsOf(shown).slice(0, captioned.length)).toEqual(captioned);
    } finally {
      fake.tokenDelayMs = 0;
      probe.close();
    }
  }, 60_000);

  it("gives a sentence held back by safety no marks: the captions are the words that were shown", async () => {
    const probe = await session({ subtitles: true, visemes: true });
    fake.plan(["Hi", " there!", " He st", "abbed the m", "an until bl", "ood poured", " out everywhere.", " Let's", " play a", " game."]);
    const { events } = await probe.interact("tell me a story", { audio_output: true }, 30_000);
    probe.close();
    const reply = events.find((e) => e.event === "text_complete")!.text as string;
    expect(reply).toBe("Hi there! Let's play a game.");
    const captioned = audioOf(events).flatMap((e) => e.subtitles.map((w: Msg) => w.text));
    expect(captioned).toEqual(["Hi", "there!", "Let's", "play", "a", "game."]);
    expect(JSON.stringify(audioOf(events))).not.toContain("blood");
  }, 30_000);
});

describe("captions of a reply with markup, emoji and numbers", () => {
  const offline = () => ({ server, close: async () => {} });
  const remote = async () => {
    const started = await startTestServer(fakeProviderEnv(fake));
    return { server: started, close: () => started.close() };
  };
  it.each([
    ["offline", "engine", "mp3", offline],
    ["offline", "engine", "pcm16", offline],
    ["OpenAI-compatible", "estimated", "mp3", remote],
    ["OpenAI-compatible", "estimated", "pcm16", remote],
  ] as const)(
    "are the words of text_complete as written, from the %s voice (%s marks, %s)",
    async (_, marks, format, start) => {
      const voice = await start();
      try {
        const player = await createPlayer(voice.server, await createTeamFixture(voice.server));
        const probe = await openSession(voice.server.url, player.token, { prompt: PROMPT, subtitles: true, visemes: true, audio_format: format });
        fake.plan(say(MARKED_UP));
        const { events } = await probe.interact("hi", { audio_output: true }, 30_000);
        probe.close();
        const reply = events.find((e) => e.event === "text_complete")!.text as string;
        expect(reply).toBe(MARKED_UP);
        const audio = audioOf(events);
        expect(audio.length).toBeGreaterThan(0);
        for (const e of audio) {
          expect(e.marks).toBe(marks);
          expectWellFormed({ subtitles: e.subtitles, visemes: e.visemes }, e.duration_sec);
        }
        const captioned = audio.flatMap((e) => e.subtitles.map((w: Msg) => w.text));
        expect(captioned).toEqual(wordsOf(reply));
        expect(captioned).toContain("*love*");
        expect(captioned).toContain("a<b");
        expect(captioned).toContain("3.14,");
        // Each message's captions are the words of the sentence it speaks, as the text events wrote it.
        for (const e of audio) for (const w of e.subtitles) expect(wordsOf(e.text)).toContain(w.text);
        // The offline voice's times are its own: every caption, the emoji's too, holds voiced sound.
        if (marks === "engine") for (const sentence of await sentences(events)) expectSentenceMatchesSound(sentence);
      } finally {
        await voice.close();
      }
    },
    60_000,
  );
});

describe("estimated speech marks from a voice without timings", () => {
  it.each(["mp3", "pcm16"])(
    "estimates the words and visemes of an OpenAI-compatible voice's %s audio, and says so",
    async (format) => {
      const remote = await startTestServer(fakeProviderEnv(fake));
      try {
        const player = await createPlayer(remote, await createTeamFixture(remote));
        const probe = await openSession(remote.url, player.token, { prompt: PROMPT, subtitles: true, visemes: true, audio_format: format });
        fake.plan(say("Hello there, my friend! Let's count 3 stars."));
        const { events } = await probe.interact("hi", { audio_output: true }, 30_000);
        probe.close();
        const audio = audioOf(events);
        expect(audio.length).toBeGreaterThan(1);
        for (const e of audio) {
          expect(e.marks).toBe("estimated");
          expectWellFormed({ subtitles: e.subtitles, visemes: e.visemes }, e.duration_sec);
        }
        const reply = events.find((e) => e.event === "text_complete")!.text as string;
        expect(audio.flatMap((e) => e.subtitles.map((w: Msg) => w.text))).toEqual(wordsOf(reply));
        // Every word is given some of the audio, in order.
        const sentence = (await sentences(events))[0];
        expect(sentence.words.map((w) => w.text)).toEqual(["Hello", "there,", "my", "friend!"]);
        for (const [k, w] of sentence.words.entries()) if (k > 0) expect(w.start_time_sec).toBeGreaterThan(sentence.words[k - 1].start_time_sec);
      } finally {
        await remote.close();
      }
    },
    30_000,
  );
});

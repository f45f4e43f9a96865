/**
 * The session buffer's rules: turn detection in audio time, limits, refusals that change nothing, clear,
 * consume versus peek, order of calls, and the audio budget.
 */
import { afterEach, describe, expect, it } from "bun:test";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { AudioBudget, MIN_COST_SECONDS, VoiceBuffer, VoiceInputError } from "../../../src/engine/voice-in/index.ts";
import { unityChunks } from "./helpers/ogg.ts";
import { chunks, fixture, pcm16Bytes, readWav16k, speech } from "./helpers/speech.ts";

const settings = { maxSeconds: 60, maxBytes: 8 * 1024 * 1024, silenceMs: 700, vadMode: 3 };
const PCM = { mime_type: "audio/pcm", sampling_rate: 16000 };
const open: VoiceBuffer[] = [];
afterEach(() => {
  for (const b of open.splice(0)) b.close();
});
async function buffer(overrides: Partial<typeof settings> = {}): Promise<VoiceBuffer> {
  const b = await VoiceBuffer.create({ ...settings, ...overrides });
  open.push(b);
  return b;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "accepted";
  } catch (error) {
    return error instanceof VoiceInputError ? error.code : `unexpected ${String(error)}`;
  }
}

/** Feeds 10 ms PCM chunks and returns isUserStillSpeaking after each, indexed by audio time (10 ms steps). */
async function turnTimeline(voice: VoiceBuffer, samples: Int16Array): Promise<boolean[]> {
  const timeline: boolean[] = [];
  for (const chunk of chunks(pcm16Bytes(samples), 320)) {
    await voice.add(chunk, PCM);
    timeline.push(voice.turn().isUserStillSpeaking);
  }
  return timeline;
}

describe("turn detection (check_turn)", () => {
  it("says nobody is speaking before speech, speaking during it, and flips once the silence after it lasts HOOT_VAD_SILENCE_MS", async () => {
    const original = await speech();
    const timeline = await turnTimeline(await buffer(), original);
    const firstTrue = timeline.indexOf(true);
    const lastTrue = timeline.lastIndexOf(true);
    expect(timeline.slice(0, 40).every((v) => !v)).toBe(true); // the first 0.4 s are silence
    expect(firstTrue).toBeGreaterThan(0);
    // true without a break from the first speech until the turn ends, then false to the end
    expect(timeline.slice(firstTrue, lastTrue + 1).every(Boolean)).toBe(true);
    expect(timeline.slice(lastTrue + 1).every((v) => !v)).toBe(true);
    expect(timeline.at(-1)).toBe(false);
    // It flips 700 ms of audio after the last voiced frame, not before.
    const quiet = await buffer();
    await turnTimeline(quiet, original.subarray(0, (lastTrue + 1) * 160));
    expect(quiet.turn().trailingSilenceMs).toBe(690);
  });

  it("measures the silence in the audio, not the wall clock", async () => {
    const original = await speech();
    const voice = await buffer();
    const speechEnd = original.length - 1.2 * 16000;
    await voice.add(pcm16Bytes(original.subarray(0, speechEnd + 3200)), PCM); // 200 ms after the speech
    expect(voice.turn().isUserStillSpeaking).toBe(true);
    await Bun.sleep(900); // the client pauses: no audio, no change
    expect(voice.turn().isUserStillSpeaking).toBe(true);
    await voice.add(pcm16Bytes(original.subarray(speechEnd + 3200)), PCM);
    expect(voice.turn().isUserStillSpeaking).toBe(false);
  });

  it("honours a shorter silence setting", async () => {
    const original = await speech();
    const long = await turnTimeline(await buffer({ silenceMs: 700 }), original);
    const short = await turnTimeline(await buffer({ silenceMs: 300 }), original);
    expect(long.lastIndexOf(true) - short.lastIndexOf(true)).toBe(40);
  });

  it("says speech started in the chunk where it did (the barge-in cue), once", async () => {
    const voice = await buffer();
    const starts: number[] = [];
    let i = 0;
    for (const chunk of chunks(pcm16Bytes(await speech()), 3200)) {
      if ((await voice.add(chunk, PCM)).speechStarted) starts.push(i);
      i++;
    }
    expect(starts.length).toBeGreaterThanOrEqual(1);
    expect(starts[0]).toBeGreaterThanOrEqual(5); // not in the first 0.5 s of silence
  });

  it("hears no speech in silence or in low hum", async () => {
    const voice = await buffer();
    await voice.add(pcm16Bytes(new Int16Array(32000)), PCM);
    const hum = new Int16Array(32000).map((_, n) => Math.round(300 * Math.sin((2 * Math.PI * 50 * n) / 16000)));
    await voice.add(pcm16Bytes(hum), PCM);
    expect(voice.turn()).toMatchObject({ heardSpeech: false, isUserStillSpeaking: false, speaking: false });
  });
});

describe("refusals", () => {
  it.each([
    ["bytes of no format, unlabelled", new Uint8Array(4000).fill(7), { mime_type: "audio/mpeg" }],
    ["JSON text sent as audio", new TextEncoder().encode('{"hello": "world"}'), { mime_type: "audio/ogg" }],
    ["raw PCM with no label", pcm16Bytes(new Int16Array(1600).fill(1000)), undefined],
    ["an Ogg page from the middle of a stream", unityChunks(fixture("puppy.unity.ogg"))[3], { mime_type: "audio/ogg" }],
    ["a RIFF file that is not WAVE", new TextEncoder().encode("RIFF\x10\x00\x00\x00AVI LIST...."), { mime_type: "audio/wav" }],
    ["an empty chunk", new Uint8Array(0), PCM],
  ] as const)("refuses %s with invalid_audio and keeps nothing", async (_name, bytes, config) => {
    const voice = await buffer();
    expect(await codeOf(voice.add(bytes, config))).toBe("invalid_audio");
    expect(voice.durationMs).toBe(0);
    expect(voice.receivedBytes).toBe(0);
    expect(await voice.wav()).toBeNull();
  });

  it("refuses a sampling_rate that is not a rate", async () => {
    const voice = await buffer();
    expect(await codeOf(voice.add(new Uint8Array(320), { mime_type: "audio/pcm", sampling_rate: 7 }))).toBe("invalid_audio");
  });

  it("refuses a broken continuation but keeps the audio before it, and accepts a new stream after", async () => {
    const voice = await buffer();
    const pages = unityChunks(fixture("puppy.unity.ogg"));
    for (const chunk of pages.slice(0, 8)) await voice.add(chunk, { mime_type: "audio/ogg" });
    const kept = voice.durationMs;
    expect(kept).toBeGreaterThan(0);
    const broken = pages[8].slice();
    broken.set([1, 2, 3, 4], 0); // no longer starts with OggS
    expect(await codeOf(voice.add(broken, { mime_type: "audio/ogg" }))).toBe("invalid_audio");
    expect(voice.durationMs).toBe(kept);
    // That stream is over: the rest of the utterance is dropped, not refused again chunk by chunk.
    expect(await codeOf(voice.add(pages[9], { mime_type: "audio/ogg" }))).toBe("accepted");
    expect(voice.durationMs).toBe(kept);
    expect(await codeOf(voice.add(pcm16Bytes(new Int16Array(1600)), PCM))).toBe("accepted");
    expect(voice.durationMs).toBe(kept + 100);
  });

  it("refuses WebM that is not Opus by name", async () => {
    const webm = fixture("puppy.webm").slice();
    const at = Buffer.from(webm).indexOf("A_OPUS");
    webm.set(new TextEncoder().encode("A_VORB"), at);
    const voice = await buffer();
    let message = "";
    for (const chunk of chunks(webm, 4000)) {
      try {
        await voice.add(chunk, { mime_type: "audio/webm" });
      } catch (error) {
        message = (error as Error).message;
        break;
      }
    }
    expect(message).toContain("A_VORB");
  });
});

describe("limits", () => {
  it("answers audio_buffer_full past the duration limit, keeps what fitted, refuses until cleared", async () => {
    const voice = await buffer({ maxSeconds: 2 });
    const second = pcm16Bytes(new Int16Array(16000));
    expect(await codeOf(voice.add(second, PCM))).toBe("accepted");
    expect(await codeOf(voice.add(second.subarray(0, 16000), PCM))).toBe("accepted"); // 1.5 s
    expect(await codeOf(voice.add(second, PCM))).toBe("audio_buffer_full"); // would be 2.5 s
    expect(voice.durationMs).toBe(1500);
    expect(await codeOf(voice.add(second.subarray(0, 320), PCM))).toBe("audio_buffer_full"); // stays full
    voice.clear();
    expect(await codeOf(voice.add(second, PCM))).toBe("accepted");
    expect(voice.durationMs).toBe(1000);
  });

  it("answers audio_buffer_full past the byte limit before decoding anything", async () => {
    const voice = await buffer({ maxBytes: 10_000 });
    expect(await codeOf(voice.add(new Uint8Array(6000), PCM))).toBe("accepted");
    expect(await codeOf(voice.add(new Uint8Array(6000), PCM))).toBe("audio_buffer_full");
    expect(voice.receivedBytes).toBe(6000);
  });

  it("error messages say what the limits are", async () => {
    const voice = await buffer({ maxSeconds: 1 });
    const error = await voice.add(new Uint8Array(64000), PCM).catch((e: unknown) => e);
    expect((error as Error).message).toContain("1 s");
  });
});

describe("peek, take, clear", () => {
  it("wav() leaves the audio, take() empties the buffer, both give the same 16 kHz WAV", async () => {
    const voice = await buffer();
    const samples = (await speech()).subarray(0, 16000);
    await voice.add(pcm16Bytes(samples), PCM);
    const peeked = await voice.wav();
    expect(voice.durationMs).toBe(1000);
    const taken = await voice.take();
    expect(taken).toEqual(peeked);
    expect(readWav16k(taken!)).toEqual(samples);
    expect(voice.durationMs).toBe(0);
    expect(await voice.take()).toBeNull();
    expect(voice.turn().heardSpeech).toBe(false);
  });

  it("clear() on an empty buffer succeeds", async () => {
    const voice = await buffer();
    voice.clear();
    voice.clear();
    expect(voice.durationMs).toBe(0);
  });

  it("applies calls in the order they were made, and a clear drops adds made before it", async () => {
    const voice = await buffer();
    const pages = unityChunks(fixture("puppy.unity.ogg"));
    const before = pages.slice(0, 10).map((c) => voice.add(c, { mime_type: "audio/ogg" }));
    voice.clear();
    const after = voice.add(pcm16Bytes(new Int16Array(800)), PCM);
    await Promise.all([...before, after]);
    expect(voice.durationMs).toBe(50);
    expect((await voice.take())!.length).toBe(44 + 1600);
  });

  it("close() drops everything and refuses more", async () => {
    const voice = await buffer();
    await voice.add(pcm16Bytes(new Int16Array(1600)), PCM);
    voice.close();
    expect(voice.durationMs).toBe(0);
    expect(await codeOf(voice.add(pcm16Bytes(new Int16Array(1600)), PCM))).toBe("invalid_audio");
  });

  it("writes nothing to disk", async () => {
    const before = new Set(readdirSync(tmpdir()));
    const cwd = new Set(readdirSync(process.cwd()));
    const voice = await buffer();
    for (const chunk of unityChunks(fixture("puppy.unity.ogg"))) await voice.add(chunk, { mime_type: "audio/ogg" });
    for (const chunk of chunks(fixture("puppy.webm"), 500)) await voice.add(chunk, { mime_type: "audio/mpeg" });
    await voice.take();
    expect(readdirSync(tmpdir()).filter((f) => !before.has(f) && /wav|ogg|webm|audio|voice/i.test(f))).toEqual([]);
    expect(readdirSync(process.cwd()).filter((f) => !cwd.has(f))).toEqual([]);
  });
});

describe("audio budget", () => {
  it("never cuts off a client streaming in real time, in 100 ms or 10 ms chunks, for ten minutes", () => {
    for (const chunkSeconds of [0.1, 0.01, 0.083]) {
      const budget = new AudioBudget(2, 60, 0);
      let refused = 0;
      for (let t = 0; t < 600; t += chunkSeconds) if (!budget.spend(chunkSeconds, t * 1000).ok) refused++;
      expect(refused).toBe(0);
    }
  });

  it("lets a buffered backlog through at once, then holds a sender at three times real time", () => {
    const budget = new AudioBudget(2, 60, 0);
    expect(budget.spend(30, 0).ok).toBe(true); // 30 s of backlog in one go
    let refusedAt = -1;
    for (let i = 0; i < 10_000 && refusedAt < 0; i++) {
      const now = i * 100;
      if (!budget.spend(0.3, now).ok) refusedAt = now;
    }
    // 30 s left after the backlog, draining at 3 - 2 = 1 s per second: about 30 s until it runs dry.
    expect(refusedAt).toBeGreaterThan(28_000);
    expect(refusedAt).toBeLessThan(32_000);
    const decision = budget.spend(0.3, refusedAt);
    expect(decision.ok).toBe(false);
    expect(decision.retryAfterMs).toBeGreaterThan(0);
    expect(budget.spend(0.3, refusedAt + decision.retryAfterMs).ok).toBe(true);
  });

  it("charges even empty chunks a little, so a flood of them runs dry", () => {
    const budget = new AudioBudget(2, 1, 0);
    let accepted = 0;
    while (budget.spend(0, 0).ok) accepted++;
    expect(accepted).toBeGreaterThanOrEqual(Math.floor(1 / MIN_COST_SECONDS) - 1);
    expect(accepted).toBeLessThanOrEqual(Math.floor(1 / MIN_COST_SECONDS));
  });

  it("a refused chunk is not buffered", async () => {
    const voice = await buffer();
    const budget = new AudioBudget(1, 1, performance.now());
    expect(await codeOf(voice.add(pcm16Bytes(new Int16Array(8000)), PCM, budget))).toBe("accepted");
    expect(await codeOf(voice.add(pcm16Bytes(new Int16Array(16000)), PCM, budget))).toBe("rate_limited");
    expect(voice.durationMs).toBe(500);
  });
});

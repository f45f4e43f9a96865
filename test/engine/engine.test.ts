import { describe, expect, it } from "bun:test";
import pino from "pino";
import { createEngine } from "../../src/engine/engine.ts";
import { LlmError } from "../../src/engine/llm/errors.ts";
import type { TurnEvent } from "../../src/engine/types.ts";
import { FakeLlm } from "./helpers/fake-llm.ts";
import { FakeTts, decodeFakeAudio } from "./helpers/fake-tts.ts";
import { collect, names, testConfig, textOf, turnInput } from "./helpers/turn.ts";

const config = testConfig({ HOOT_LLM_FIRST_TOKEN_TIMEOUT_MS: "2000", HOOT_LLM_STALL_TIMEOUT_MS: "2000" });
const STORY = ["Once", " upon", " a", " time,", " there", " was", " an", " owl.", " It", " was", " wise.", " The", " end!"];

type Audio = Extract<TurnEvent, { event: "audio" }>;
const audioOf = (events: { event: TurnEvent }[]): Audio[] => events.map((e) => e.event).filter((e): e is Audio => e.event === "audio");

describe("engine turn", () => {
  it("streams text, then text_complete with the whole reply", async () => {
    const engine = createEngine({ config, llm: new FakeLlm({ tokens: STORY }), tts: new FakeTts() });
    const events = await collect(engine.runTurn(turnInput()));
    expect(names(events)).toEqual([...STORY.map(() => "text"), "text_complete"]);
    expect(events.at(-1)!.event).toEqual({ event: "text_complete", text: STORY.join("") });
  });

  it("speaks the first clause then each sentence, seq from 0, and ends with audio_complete", async () => {
    const tts = new FakeTts({ chunksPerSentence: 2 });
    const engine = createEngine({ config, llm: new FakeLlm({ tokens: STORY }), tts });
    const events = await collect(engine.runTurn(turnInput({ audioOutput: true, config: { prompt: "p", audio_format: "pcm16", language_code: "en", voice_profile: { voice_id: "fake-owl" } } })));
    expect(names(events).slice(-2)).toEqual(["text_complete", "audio_complete"]);
    const audio = audioOf(events);
    expect(audio.map((a) => a.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(audio.map((a) => a.text)).toEqual(["Once upon a time,", "Once upon a time,", "there was an owl.", "there was an owl.", "It was wise.", "It was wise.", "The end!", "The end!"]);
    expect(audio.map((a) => decodeFakeAudio(a.audio))).toEqual(["Once upon a time,#0", "Once upon a time,#1", "there was an owl.#0", "there was an owl.#1", "It was wise.#0", "It was wise.#1", "The end!#0", "The end!#1"]);
    expect(audio[0]).toMatchObject({ mime_type: "audio/mpeg", sample_rate: 22050 });
    expect(tts.records[0]!.text).toBe("Once upon a time,");
  });

  it("hands the voice profile and audio format to the speech provider", async () => {
    const tts = new FakeTts();
    const requests: unknown[] = [];
    const synthesize = tts.synthesize.bind(tts);
    tts.synthesize = (request) => {
      requests.push({ voice: request.voice, format: request.format });
      return synthesize(request);
    };
    const engine = createEngine({ config, llm: new FakeLlm({ tokens: ["Hi there."] }), tts });
    await collect(engine.runTurn(turnInput({ audioOutput: true, config: { prompt: "p", audio_format: "pcm16", language_code: "en", voice_profile: { voice_id: "fake-owl", speed: 0.9 } } })));
    expect(requests).toEqual([{ voice: { voice_id: "fake-owl", speed: 0.9 }, format: "pcm16" }]);
  });

  it("sends no audio and no audio_complete when audio was not asked for", async () => {
    const tts = new FakeTts();
    const events = await collect(createEngine({ config, llm: new FakeLlm({ tokens: STORY }), tts }).runTurn(turnInput({ audioOutput: false })));
    expect(names(events).filter((n) => n.startsWith("audio"))).toEqual([]);
    expect(tts.records).toHaveLength(0);
  });

  it("still ends with audio_complete when audio was asked for but no speech provider exists", async () => {
    const events = await collect(createEngine({ config, llm: new FakeLlm({ tokens: STORY }), tts: null }).runTurn(turnInput({ audioOutput: true })));
    expect(names(events).slice(-2)).toEqual(["text_complete", "audio_complete"]);
    expect(audioOf(events)).toEqual([]);
  });

  it("never holds text back waiting for slow audio", async () => {
    const tts = new FakeTts({ delayMs: 150, chunksPerSentence: 1 });
    const engine = createEngine({ config, llm: new FakeLlm({ tokens: STORY }), tts });
    const events = await collect(engine.runTurn(turnInput({ audioOutput: true })));
    const texts = events.filter((e) => e.event.event === "text");
    const firstAudio = events.find((e) => e.event.event === "audio")!;
    expect(texts).toHaveLength(STORY.length);
    expect(texts.at(-1)!.at).toBeLessThan(firstAudio.at);
    expect(texts.at(-1)!.at).toBeLessThan(100);
  });

  it("synthesizes the next sentence while the previous one is still being sent, one ahead at most", async () => {
    const tts = new FakeTts({ delayMs: 40, chunksPerSentence: 3 });
    const engine = createEngine({ config, llm: new FakeLlm({ tokens: STORY }), tts });
    await collect(engine.runTurn(turnInput({ audioOutput: true })));
    expect(tts.records).toHaveLength(4);
    for (let i = 1; i < tts.records.length; i++) {
      expect(tts.records[i]!.startedAt).toBeLessThan(tts.records[i - 1]!.endedAt!);
    }
    expect(tts.maxActive).toBe(2);
  });

  it("stops text and audio at once on interruption, with no events after it", async () => {
    const llm = new FakeLlm({ tokens: [...STORY, ...STORY, ...STORY], delayMs: 15 });
    const tts = new FakeTts({ delayMs: 30, chunksPerSentence: 3 });
    const controller = new AbortController();
    const engine = createEngine({ config, llm, tts });
    const seen: string[] = [];
    let abortedAt = 0;
    for await (const event of engine.runTurn(turnInput({ audioOutput: true, signal: controller.signal }))) {
      seen.push(event.event);
      if (event.event === "audio" && abortedAt === 0) {
        controller.abort();
        abortedAt = performance.now();
      }
    }
    const stoppedAfter = performance.now() - abortedAt;
    expect(seen.at(-1)).toBe("audio");
    expect(seen.filter((n) => n === "audio")).toHaveLength(1);
    expect(seen).not.toContain("text_complete");
    expect(stoppedAfter).toBeLessThan(20);
    await Bun.sleep(40);
    expect(llm.requests[0]!.signal.aborted).toBe(true);
    expect(tts.active).toBe(0);
    expect(tts.records.every((r) => r.endedAt !== null)).toBe(true);
    expect(tts.records.some((r) => r.aborted)).toBe(true);
  });

  it("returns promptly when interrupted while waiting for the first token", async () => {
    const llm = new FakeLlm({ firstDelayMs: 5000, ignoreAbort: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const start = performance.now();
    const events = await collect(createEngine({ config, llm, tts: null }).runTurn(turnInput({ signal: controller.signal })));
    expect(events).toEqual([]);
    expect(performance.now() - start).toBeLessThan(200);
  });

  it("stops every stage when the consumer walks away early", async () => {
    const llm = new FakeLlm({ tokens: STORY, delayMs: 10 });
    const tts = new FakeTts({ delayMs: 10 });
    for await (const event of createEngine({ config, llm, tts }).runTurn(turnInput({ audioOutput: true }))) {
      if (event.event === "text") break;
    }
    await Bun.sleep(30);
    expect(llm.requests[0]!.signal.aborted).toBe(true);
    expect(tts.active).toBe(0);
  });

  it("turns a speech failure into interaction_error tts_failed and stops the model", async () => {
    const llm = new FakeLlm({ tokens: [...STORY, ...STORY], delayMs: 5 });
    const tts = new FakeTts({ failOn: (text) => text.includes("owl") });
    const events = await collect(createEngine({ config, llm, tts }).runTurn(turnInput({ audioOutput: true })));
    const last = events.at(-1)!.event;
    expect(last).toMatchObject({ event: "interaction_error", code: "tts_failed" });
    expect(names(events)).not.toContain("text_complete");
    expect(names(events).filter((n) => n === "interaction_error")).toHaveLength(1);
    expect(llm.requests[0]!.signal.aborted).toBe(true);
  });

  it("reports a model failure mid-reply after the text already sent, without retrying", async () => {
    const llm = new FakeLlm({ tokens: STORY, failAfter: 3 });
    const events = await collect(createEngine({ config, llm, tts: null }).runTurn(turnInput()));
    expect(names(events)).toEqual(["text", "text", "text", "interaction_error"]);
    expect(events.at(-1)!.event).toEqual({ event: "interaction_error", code: "llm_unavailable", error: expect.any(String) });
    expect(llm.requests).toHaveLength(1);
  });

  it("retries once when the model fails before its first token", async () => {
    const llm = new FakeLlm({ tokens: ["Hi!"], failCalls: 1 });
    const events = await collect(createEngine({ config, llm, tts: null }).runTurn(turnInput()));
    expect(names(events)).toEqual(["text", "text_complete"]);
    expect(llm.requests).toHaveLength(2);
  });

  it("gives the model the assembled prompt, temperature and hints", async () => {
    const llm = new FakeLlm();
    await collect(createEngine({ config, llm, tts: null }).runTurn(turnInput({ text: ".", context: { player_name: "Mia" }, config: { prompt: "You are Ollie the owl.", temperature: 0.2, audio_format: "mp3", language_code: "en" } })));
    const request = llm.requests[0]!;
    expect(request.temperature).toBe(0.2);
    expect(request.hints).toMatchObject({ characterName: "Ollie", isGreeting: true, userText: null, context: { player_name: "Mia" } });
  });

  it("never logs the child's words or the reply", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "trace" }, { write: (line: string) => lines.push(line) });
    const llm = new FakeLlm({ tokens: ["Giraffes", " are", " tall."], failCalls: 1 });
    await collect(createEngine({ config, llm, tts: new FakeTts(), logger }).runTurn(turnInput({ text: "tell me about zebras please", audioOutput: true })));
    const log = lines.join("");
    expect(lines.length).toBeGreaterThan(1);
    expect(log).toContain("turn finished");
    expect(log).not.toMatch(/zebras|Giraffes|tall/);
  });

  it("lists the speech provider's voices and closes both providers once", async () => {
    const llm = new FakeLlm();
    const tts = new FakeTts();
    const engine = createEngine({ config, llm, tts });
    expect(engine.voices()).toEqual(["fake-kid", "fake-owl"]);
    await Promise.all([engine.close(), engine.close()]);
    expect([llm.closed, tts.closed]).toEqual([1, 1]);
    expect(createEngine({ config, llm, tts: null }).voices()).toEqual([]);
  });

  it("runs a whole turn with the local engine", async () => {
    const { createLlmProvider } = await import("../../src/engine/llm/index.ts");
    const engine = createEngine({ config, llm: createLlmProvider(config), tts: new FakeTts() });
    const events = await collect(engine.runTurn(turnInput({ text: ".", context: { player_name: "Mia" }, audioOutput: true })));
    expect(textOf(events)).toContain("Mia");
    expect(names(events).slice(-2)).toEqual(["text_complete", "audio_complete"]);
    expect(audioOf(events).length).toBeGreaterThan(0);
  });
});

describe("engine errors", () => {
  it("never throws for provider failures, even unexpected ones", async () => {
    const llm = new FakeLlm({ failCalls: 9, error: new TypeError("boom") });
    const events = await collect(createEngine({ config, llm, tts: null }).runTurn(turnInput()));
    expect(names(events)).toEqual(["interaction_error"]);
  });

  it("maps timeouts to llm_timeout", async () => {
    const llm = new FakeLlm({ failCalls: 9, error: new LlmError("slow", "timeout", false) });
    const events = await collect(createEngine({ config, llm, tts: null }).runTurn(turnInput()));
    expect(events[0]!.event).toMatchObject({ code: "llm_timeout" });
  });
});

import { describe, expect, it } from "bun:test";
import pino from "pino";
import { createEngine } from "../../src/engine/engine.ts";
import type { AudioFrame, TurnFrame } from "../../src/engine/frames.ts";
import { LlmError } from "../../src/engine/llm/errors.ts";
import { createLocalLlm } from "../../src/engine/llm/local/index.ts";
import { GREETING_INSTRUCTION } from "../../src/engine/prompt/preamble.ts";
import { FakeLlm } from "./helpers/fake-llm.ts";
import { FakeTts } from "./helpers/fake-tts.ts";
import { collect, testOptions, textOf, turnInput, types } from "./helpers/turn.ts";

const STORY = ["Once", " upon", " a", " time,", " there", " was", " an", " owl.", " It", " was", " wise.", " The", " end!"];

const audioOf = (frames: { frame: TurnFrame }[]): AudioFrame[] => frames.map((f) => f.frame).filter((f): f is AudioFrame => f.type === "audio");
const decoded = (frame: AudioFrame): string => new TextDecoder().decode(frame.chunk.data);
const engineWith = (llm: FakeLlm, tts: FakeTts | null, extra: Partial<Parameters<typeof createEngine>[0]> = {}) =>
  createEngine({ ...testOptions, llm, tts, ...extra });

describe("engine turn", () => {
  it("streams text frames, then complete with the whole reply", async () => {
    const frames = await collect(engineWith(new FakeLlm({ tokens: STORY }), new FakeTts()).runTurn(turnInput()));
    expect(types(frames)).toEqual([...STORY.map(() => "text"), "complete"]);
    expect(frames.at(-1)!.frame).toEqual({ type: "complete", text: STORY.join(""), audio: false });
  });

  it("speaks the first clause then each sentence, seq from 0, and says audio was asked for", async () => {
    const tts = new FakeTts({ chunksPerSentence: 2 });
    const frames = await collect(
      engineWith(new FakeLlm({ tokens: STORY }), tts).runTurn(
        turnInput({ audioOutput: true, config: { ...turnInput().config, audio_format: "pcm16", voice_profile: { voice_id: "fake-owl" } } }),
      ),
    );
    expect(frames.at(-1)!.frame).toMatchObject({ type: "complete", audio: true });
    const audio = audioOf(frames);
    expect(audio.map((a) => a.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(audio.map((a) => a.text)).toEqual([
      "Once upon a time,",
      "Once upon a time,",
      "there was an owl.",
      "there was an owl.",
      "It was wise.",
      "It was wise.",
      "The end!",
      "The end!",
    ]);
    expect(audio.map(decoded)).toEqual([
      "Once upon a time,#0",
      "Once upon a time,#1",
      "there was an owl.#0",
      "there was an owl.#1",
      "It was wise.#0",
      "It was wise.#1",
      "The end!#0",
      "The end!#1",
    ]);
    expect(audio[0]!.chunk).toMatchObject({ mimeType: "audio/mpeg", sampleRate: 22050 });
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
    await collect(
      engineWith(new FakeLlm({ tokens: ["Hi there."] }), tts).runTurn(
        turnInput({ audioOutput: true, config: { ...turnInput().config, audio_format: "pcm16", voice_profile: { voice_id: "fake-owl", speed: 0.9 } } }),
      ),
    );
    expect(requests).toEqual([{ voice: { voice_id: "fake-owl", speed: 0.9 }, format: "pcm16" }]);
  });

  it("passes the turn's admission ticket with every sentence and releases it when the turn ends", async () => {
    const tts = new FakeTts({ admitTurns: 1 });
    const frames = await collect(engineWith(new FakeLlm({ tokens: STORY }), tts).runTurn(turnInput({ audioOutput: true })));
    expect(types(frames)).not.toContain("speech_unavailable");
    expect(audioOf(frames).length).toBeGreaterThan(0);
    expect(tts.ticketsSeen.size).toBe(1);
    expect(tts.ticketsOut).toBe(0);
  });

  it("says up front that a turn the speech engine cannot admit is text only, and still ends saying audio was asked for", async () => {
    const tts = new FakeTts({ admitTurns: 0 });
    const frames = await collect(engineWith(new FakeLlm({ tokens: STORY }), tts).runTurn(turnInput({ audioOutput: true })));
    expect(types(frames)[0]).toBe("speech_unavailable");
    expect(types(frames).filter((t) => t === "speech_unavailable")).toHaveLength(1);
    expect(textOf(frames)).toBe(STORY.join(""));
    expect(audioOf(frames)).toEqual([]);
    expect(tts.records).toHaveLength(0);
    expect(frames.at(-1)!.frame).toEqual({ type: "complete", text: STORY.join(""), audio: true });
  });

  it("asks for no ticket when audio was not asked for", async () => {
    const tts = new FakeTts({ admitTurns: 0 });
    const frames = await collect(engineWith(new FakeLlm({ tokens: STORY }), tts).runTurn(turnInput({ audioOutput: false })));
    expect(types(frames)).not.toContain("speech_unavailable");
  });

  it("produces no audio when audio was not asked for", async () => {
    const tts = new FakeTts();
    const frames = await collect(engineWith(new FakeLlm({ tokens: STORY }), tts).runTurn(turnInput({ audioOutput: false })));
    expect(audioOf(frames)).toEqual([]);
    expect(frames.at(-1)!.frame).toMatchObject({ type: "complete", audio: false });
    expect(tts.records).toHaveLength(0);
  });

  it("still says audio was asked for when no speech provider exists", async () => {
    const frames = await collect(engineWith(new FakeLlm({ tokens: STORY }), null).runTurn(turnInput({ audioOutput: true })));
    expect(frames.at(-1)!.frame).toMatchObject({ type: "complete", audio: true });
    expect(audioOf(frames)).toEqual([]);
  });

  it("never holds text back waiting for slow audio", async () => {
    const tts = new FakeTts({ delayMs: 150, chunksPerSentence: 1 });
    const frames = await collect(engineWith(new FakeLlm({ tokens: STORY }), tts).runTurn(turnInput({ audioOutput: true })));
    const texts = frames.filter((f) => f.frame.type === "text");
    const firstAudio = frames.find((f) => f.frame.type === "audio")!;
    expect(texts).toHaveLength(STORY.length);
    expect(texts.at(-1)!.at).toBeLessThan(firstAudio.at);
    expect(texts.at(-1)!.at).toBeLessThan(100);
  });

  it("synthesizes the next sentence while the previous one is still being sent, one ahead at most", async () => {
    const tts = new FakeTts({ delayMs: 40, chunksPerSentence: 3 });
    await collect(engineWith(new FakeLlm({ tokens: STORY }), tts).runTurn(turnInput({ audioOutput: true })));
    expect(tts.records).toHaveLength(4);
    for (let i = 1; i < tts.records.length; i++) {
      expect(tts.records[i]!.startedAt).toBeLessThan(tts.records[i - 1]!.endedAt!);
    }
    expect(tts.maxActive).toBe(2);
  });

  it("stops text and audio at once on interruption, with no frames after it", async () => {
    const llm = new FakeLlm({ tokens: [...STORY, ...STORY, ...STORY], delayMs: 15 });
    const tts = new FakeTts({ delayMs: 30, chunksPerSentence: 3 });
    const controller = new AbortController();
    const seen: string[] = [];
    let abortedAt = 0;
    for await (const frame of engineWith(llm, tts).runTurn(turnInput({ audioOutput: true, signal: controller.signal }))) {
      seen.push(frame.type);
      if (frame.type === "audio" && abortedAt === 0) {
        controller.abort();
        abortedAt = performance.now();
      }
    }
    const stoppedAfter = performance.now() - abortedAt;
    expect(seen.at(-1)).toBe("audio");
    expect(seen.filter((n) => n === "audio")).toHaveLength(1);
    expect(seen).not.toContain("complete");
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
    const frames = await collect(engineWith(llm, null).runTurn(turnInput({ signal: controller.signal })));
    expect(frames).toEqual([]);
    expect(performance.now() - start).toBeLessThan(200);
  });

  it("returns promptly when interrupted while a speech provider ignores its signal", async () => {
    const tts = new FakeTts({ delayMs: 3000, chunksPerSentence: 1, ignoreAbort: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const start = performance.now();
    await collect(engineWith(new FakeLlm({ tokens: STORY }), tts).runTurn(turnInput({ audioOutput: true, signal: controller.signal })));
    expect(performance.now() - start).toBeLessThan(200);
  });

  it("stops every stage, and waits for them, when the consumer walks away early", async () => {
    const llm = new FakeLlm({ tokens: STORY, delayMs: 10 });
    const tts = new FakeTts({ delayMs: 10 });
    for await (const frame of engineWith(llm, tts).runTurn(turnInput({ audioOutput: true }))) {
      if (frame.type === "text") break;
    }
    // No sleep: leaving the loop waited for the turn's own loops to end.
    expect(llm.requests[0]!.signal.aborted).toBe(true);
    await Bun.sleep(20);
    expect(tts.active).toBe(0);
  });

  it("turns a speech failure into an error frame tts_failed and stops the model", async () => {
    const llm = new FakeLlm({ tokens: [...STORY, ...STORY], delayMs: 5 });
    const tts = new FakeTts({ failOn: (text) => text.includes("owl") });
    const frames = await collect(engineWith(llm, tts).runTurn(turnInput({ audioOutput: true })));
    expect(frames.at(-1)!.frame).toMatchObject({ type: "error", code: "tts_failed" });
    expect(types(frames)).not.toContain("complete");
    expect(types(frames).filter((n) => n === "error")).toHaveLength(1);
    expect(llm.requests[0]!.signal.aborted).toBe(true);
  });

  it("reports a model failure mid-reply after the text already sent, without retrying", async () => {
    const llm = new FakeLlm({ tokens: STORY, failAfter: 3 });
    const frames = await collect(engineWith(llm, null).runTurn(turnInput()));
    expect(types(frames)).toEqual(["text", "text", "text", "error"]);
    expect(frames.at(-1)!.frame).toEqual({ type: "error", code: "llm_unavailable", error: expect.any(String) });
    expect(llm.requests).toHaveLength(1);
  });

  it("retries once when the model fails before its first token", async () => {
    const llm = new FakeLlm({ tokens: ["Hi!"], failCalls: 1 });
    const frames = await collect(engineWith(llm, null).runTurn(turnInput()));
    expect(types(frames)).toEqual(["text", "complete"]);
    expect(llm.requests).toHaveLength(2);
  });

  it("gives the model the assembled prompt and the temperature, and nothing but messages", async () => {
    const llm = new FakeLlm();
    await collect(
      engineWith(llm, null).runTurn(turnInput({ text: ".", context: { player_name: "Mia" }, config: { ...turnInput().config, temperature: 0.2 } })),
    );
    const request = llm.requests[0]!;
    expect(request.temperature).toBe(0.2);
    expect(Object.keys(request).sort()).toEqual(["messages", "signal", "temperature"]);
    expect(request.messages[0]!.content).toContain("You are Ollie the owl.");
    expect(request.messages[0]!.content).toContain("player_name: Mia");
    expect(request.messages.at(-1)).toEqual({ role: "user", content: GREETING_INSTRUCTION });
  });

  it("hands the configured policy name to the safety stage", async () => {
    const seen: string[] = [];
    const safety = { name: "recording", run: (frames: AsyncIterable<never>, turn: { policy: string }) => (seen.push(turn.policy), frames) };
    await collect(engineWith(new FakeLlm(), null, { safety }).runTurn(turnInput({ config: { ...turnInput().config, safety_policy: "children_standard" } })));
    expect(seen).toEqual(["children_standard"]);
  });

  it("never logs the child's words or the reply", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "trace" }, { write: (line: string) => lines.push(line) });
    const llm = new FakeLlm({ tokens: ["Giraffes", " are", " tall."], failCalls: 1 });
    await collect(engineWith(llm, new FakeTts(), { logger }).runTurn(turnInput({ text: "tell me about zebras please", audioOutput: true })));
    const log = lines.join("");
    expect(lines.length).toBeGreaterThan(1);
    expect(log).toContain("turn finished");
    expect(log).not.toMatch(/zebras|Giraffes|tall/);
  });

  it("lists the speech provider's voices and closes both providers once", async () => {
    const llm = new FakeLlm();
    const tts = new FakeTts();
    const engine = engineWith(llm, tts);
    expect(engine.voices()).toEqual(["fake-kid", "fake-owl"]);
    await Promise.all([engine.close(), engine.close()]);
    expect([llm.closed, tts.closed]).toEqual([1, 1]);
    expect(engineWith(llm, null).voices()).toEqual([]);
  });

  it("runs a whole turn with the local engine", async () => {
    const engine = createEngine({ ...testOptions, llm: createLocalLlm({ tokensPerSecond: 0 }), tts: new FakeTts() });
    const frames = await collect(engine.runTurn(turnInput({ text: ".", context: { player_name: "Mia" }, audioOutput: true })));
    expect(textOf(frames)).toContain("Mia");
    expect(frames.at(-1)!.frame).toMatchObject({ type: "complete", audio: true });
    expect(audioOf(frames).length).toBeGreaterThan(0);
  });
});

describe("engine errors", () => {
  it("never throws for provider failures, even unexpected ones", async () => {
    const llm = new FakeLlm({ failCalls: 9, error: new TypeError("boom") });
    const frames = await collect(engineWith(llm, null).runTurn(turnInput()));
    expect(types(frames)).toEqual(["error"]);
  });

  it("maps timeouts to llm_timeout", async () => {
    const llm = new FakeLlm({ failCalls: 9, error: new LlmError("slow", "timeout", false) });
    const frames = await collect(engineWith(llm, null).runTurn(turnInput()));
    expect(frames[0]!.frame).toMatchObject({ code: "llm_timeout" });
  });
});

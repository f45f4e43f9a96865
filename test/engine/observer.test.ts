/**
 * The engine's observer hook (metrics): each timing is reported once, in the order a child sees them, counted
 * from when the caller received the request; every ending is reported with its outcome; and an observer that
 * throws never changes a turn.
 */
import { describe, expect, it } from "bun:test";
import { createEngine } from "../../src/engine/engine.ts";
import { LlmError } from "../../src/engine/llm/errors.ts";
import type { TurnObserver, TurnOutcome } from "../../src/engine/observer.ts";
import { FakeLlm } from "./helpers/fake-llm.ts";
import { FakeTts } from "./helpers/fake-tts.ts";
import { collect, testOptions, turnInput, types } from "./helpers/turn.ts";

/** An observer that records every call as [hook, value]. */
function recorder(): { calls: [string, number | TurnOutcome][]; observer: TurnObserver } {
  const calls: [string, number | TurnOutcome][] = [];
  return {
    calls,
    observer: {
      firstToken: (ms) => calls.push(["firstToken", ms]),
      firstText: (ms) => calls.push(["firstText", ms]),
      firstAudio: (ms) => calls.push(["firstAudio", ms]),
      finished: (outcome) => calls.push(["finished", outcome]),
    },
  };
}

const STORY = ["Once", " upon", " a", " time.", " The", " end!"];

describe("the engine's turn observer", () => {
  it("reports first token, first text, first audio once each, then the complete outcome", async () => {
    const { calls, observer } = recorder();
    const engine = createEngine({
      ...testOptions,
      llm: new FakeLlm({ tokens: STORY, firstDelayMs: 30 }),
      tts: new FakeTts({ chunksPerSentence: 2 }),
      observer,
    });
    const frames = await collect(engine.runTurn(turnInput({ audioOutput: true })));
    expect(frames.at(-1)!.frame.type).toBe("complete");
    expect(calls.map(([hook]) => hook)).toEqual(["firstToken", "firstText", "firstAudio", "finished"]);
    expect(calls.at(-1)).toEqual(["finished", "complete"]);
    const ms = Object.fromEntries(calls.slice(0, 3)) as Record<string, number>;
    // The model waited 30 ms before its first token; text cannot come before it, audio not before text.
    expect(ms.firstToken).toBeGreaterThanOrEqual(25);
    expect(ms.firstText).toBeGreaterThanOrEqual(ms.firstToken!);
    expect(ms.firstAudio).toBeGreaterThanOrEqual(ms.firstText!);
  });

  it("counts text and audio times from when the caller received the request", async () => {
    const { calls, observer } = recorder();
    const engine = createEngine({ ...testOptions, llm: new FakeLlm({ tokens: ["Hi."] }), tts: null, observer });
    // The request arrived 200 ms before the engine was called (input checks, history): the client waited that too.
    await collect(engine.runTurn(turnInput({ receivedAt: performance.now() - 200 })));
    const firstText = calls.find(([hook]) => hook === "firstText")![1] as number;
    const firstToken = calls.find(([hook]) => hook === "firstToken")![1] as number;
    expect(firstText).toBeGreaterThanOrEqual(200);
    // The model's own latency does not include the caller's work.
    expect(firstToken).toBeLessThan(200);
  });

  it("reports a failed turn under its error code, with no first token or text", async () => {
    const { calls, observer } = recorder();
    const engine = createEngine({ ...testOptions, llm: new FakeLlm({ failCalls: 2, error: new LlmError("down", "server", true, 500) }), tts: null, observer });
    const frames = await collect(engine.runTurn(turnInput()));
    expect(frames.at(-1)!.frame).toMatchObject({ type: "error", code: "llm_unavailable" });
    expect(calls).toEqual([["finished", "llm_unavailable"]]);
  });

  it("reports an aborted turn as interrupted", async () => {
    const { calls, observer } = recorder();
    const engine = createEngine({ ...testOptions, llm: new FakeLlm({ tokens: STORY, delayMs: 20 }), tts: null, observer });
    const controller = new AbortController();
    for await (const frame of engine.runTurn(turnInput({ signal: controller.signal }))) {
      if (frame.type === "text") controller.abort();
    }
    expect(calls.at(-1)).toEqual(["finished", "interrupted"]);
    expect(calls.filter(([hook]) => hook === "finished")).toHaveLength(1);
  });

  it("a scripted reply (a policy's redirect line) reports text but no model token", async () => {
    const { calls, observer } = recorder();
    const engine = createEngine({ ...testOptions, llm: new FakeLlm(), tts: null, observer });
    await collect(engine.runTurn(turnInput({ reply: "Let's talk about something else." })));
    expect(calls.map(([hook]) => hook)).toEqual(["firstText", "finished"]);
  });

  it("an observer that throws changes nothing about the turn", async () => {
    const throwing: TurnObserver = {
      firstToken: () => {
        throw new Error("metrics bug");
      },
      firstText: () => {
        throw new Error("metrics bug");
      },
      firstAudio: () => {
        throw new Error("metrics bug");
      },
      finished: () => {
        throw new Error("metrics bug");
      },
    };
    const quiet = await collect(
      createEngine({ ...testOptions, llm: new FakeLlm({ tokens: STORY }), tts: new FakeTts() }).runTurn(turnInput({ audioOutput: true })),
    );
    const noisy = await collect(
      createEngine({ ...testOptions, llm: new FakeLlm({ tokens: STORY }), tts: new FakeTts(), observer: throwing }).runTurn(turnInput({ audioOutput: true })),
    );
    expect(types(noisy)).toEqual(types(quiet));
    expect(noisy.at(-1)!.frame).toEqual(quiet.at(-1)!.frame);
  });
});

import { describe, expect, it } from "bun:test";
import { createEngine } from "../../src/engine/engine.ts";
import type { ReplyFrame } from "../../src/engine/frames.ts";
import { passThroughSafety, type SafetyStage } from "../../src/engine/safety/index.ts";
import { FakeLlm } from "./helpers/fake-llm.ts";
import { FakeTts, decodeFakeAudio } from "./helpers/fake-tts.ts";
import { collect, names, testConfig, turnInput } from "./helpers/turn.ts";

describe("safety seam", () => {
  it("passes frames through untouched by default", async () => {
    async function* frames(): AsyncGenerator<ReplyFrame> {
      yield { type: "text", text: "a" };
      yield { type: "speech", text: "a" };
    }
    const out: ReplyFrame[] = [];
    const source = frames();
    const run = passThroughSafety.run(source, { signal: new AbortController().signal, context: {}, languageCode: "en" });
    expect(run).toBe(source);
    for await (const frame of run) out.push(frame);
    expect(out).toHaveLength(2);
  });

  it("lets a stage see sentences before they are spoken, replace them and report a notice", async () => {
    const replacing: SafetyStage = {
      name: "test-policy",
      async *run(frames) {
        for await (const frame of frames) {
          if (frame.type === "speech" && frame.text.includes("scary")) {
            yield { type: "notice", category: "violence", action: "replaced" };
            yield { type: "speech", text: "Let's talk about something else." };
          } else yield frame;
        }
      },
    };
    const tts = new FakeTts({ chunksPerSentence: 1 });
    const llm = new FakeLlm({ tokens: ["Hello", " there.", " A", " scary", " thing.", " Bye", " now."] });
    const engine = createEngine({ config: testConfig(), llm, tts, safety: replacing });
    const events = await collect(engine.runTurn(turnInput({ audioOutput: true })));
    expect(names(events)).toContain("safety_policy");
    expect(events.find((e) => e.event.event === "safety_policy")!.event).toEqual({ event: "safety_policy", category: "violence", action: "replaced" });
    expect(tts.records.map((r) => r.text)).toEqual(["Hello there.", "Let's talk about something else.", "Bye now."]);
    const spoken = events.flatMap((e) => (e.event.event === "audio" ? [decodeFakeAudio(e.event.audio)] : []));
    expect(spoken.join(" ")).not.toContain("scary");
  });
});

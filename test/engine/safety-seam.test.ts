import { describe, expect, it } from "bun:test";
import { createEngine } from "../../src/engine/engine.ts";
import type { ReplyFrame } from "../../src/engine/frames.ts";
import { passThroughSafety, type SafetyStage } from "../../src/engine/safety/index.ts";
import { FakeLlm } from "./helpers/fake-llm.ts";
import { FakeTts } from "./helpers/fake-tts.ts";
import { collect, testOptions, turnInput, types } from "./helpers/turn.ts";

describe("safety seam", () => {
  it("passes frames through untouched by default", async () => {
    async function* frames(): AsyncGenerator<ReplyFrame> {
      yield { type: "text", text: "a" };
      yield { type: "speech", text: "a" };
    }
    const out: ReplyFrame[] = [];
    const source = frames();
    const run = passThroughSafety.run(source, { signal: new AbortController().signal, context: {}, languageCode: "en", policy: "children_strict" });
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
    const engine = createEngine({ ...testOptions, llm, tts, safety: replacing });
    const frames = await collect(engine.runTurn(turnInput({ audioOutput: true })));
    expect(types(frames)).toContain("notice");
    expect(frames.find((f) => f.frame.type === "notice")!.frame).toEqual({ type: "notice", category: "violence", action: "replaced" });
    expect(tts.records.map((r) => r.text)).toEqual(["Hello there.", "Let's talk about something else.", "Bye now."]);
    const spoken = frames.flatMap((f) => (f.frame.type === "audio" ? [new TextDecoder().decode(f.frame.chunk.data)] : []));
    expect(spoken.join(" ")).not.toContain("scary");
  });
});

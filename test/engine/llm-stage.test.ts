import { describe, expect, it } from "bun:test";
import { LlmError } from "../../src/engine/llm/errors.ts";
import { llmStage } from "../../src/engine/llm/stage.ts";
import { streamWithTimeouts } from "../../src/engine/llm/timeouts.ts";
import { FakeLlm } from "./helpers/fake-llm.ts";

const messages = [{ role: "user" as const, content: "hi" }];

async function drain(stream: AsyncIterable<string>): Promise<{ tokens: string[]; error: unknown }> {
  const tokens: string[] = [];
  try {
    for await (const token of stream) tokens.push(token);
    return { tokens, error: null };
  } catch (error) {
    return { tokens, error };
  }
}

describe("streamWithTimeouts", () => {
  it("passes tokens through when the provider is on time", async () => {
    const llm = new FakeLlm({ tokens: ["a", "b", "c"], delayMs: 5 });
    const result = await drain(streamWithTimeouts(llm, { messages, signal: new AbortController().signal }, { firstTokenMs: 200, stallMs: 200 }));
    expect(result).toEqual({ tokens: ["a", "b", "c"], error: null });
  });

  it("gives up on a provider that never starts, even one that ignores its signal", async () => {
    const llm = new FakeLlm({ firstDelayMs: 2000, ignoreAbort: true });
    const start = performance.now();
    const result = await drain(streamWithTimeouts(llm, { messages, signal: new AbortController().signal }, { firstTokenMs: 80, stallMs: 1000 }));
    expect(performance.now() - start).toBeLessThan(500);
    expect(result.error).toBeInstanceOf(LlmError);
    expect((result.error as LlmError).category).toBe("timeout");
    expect(llm.requests[0]!.signal.aborted).toBe(true);
  });

  it("gives up on a stall after text started, keeping the tokens already sent", async () => {
    const llm = new FakeLlm({ tokens: ["a", "b", "c"], failAfter: undefined });
    llm.stream = async function* (request) {
      yield "a";
      yield "b";
      await new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve()));
    };
    const start = performance.now();
    const result = await drain(streamWithTimeouts(llm, { messages, signal: new AbortController().signal }, { firstTokenMs: 1000, stallMs: 80 }));
    expect(performance.now() - start).toBeLessThan(500);
    expect(result.tokens).toEqual(["a", "b"]);
    expect((result.error as LlmError).category).toBe("timeout");
  });

  it("ends quietly, without an error, when the caller aborts", async () => {
    const controller = new AbortController();
    const llm = new FakeLlm({ firstDelayMs: 2000, ignoreAbort: true });
    setTimeout(() => controller.abort(), 30);
    const start = performance.now();
    const result = await drain(streamWithTimeouts(llm, { messages, signal: controller.signal }, { firstTokenMs: 5000, stallMs: 5000 }));
    expect(performance.now() - start).toBeLessThan(300);
    expect(result).toEqual({ tokens: [], error: null });
  });
});

describe("llmStage retry", () => {
  const timeouts = { firstTokenMs: 1000, stallMs: 1000 };

  it("retries once when the first try fails before its first token", async () => {
    const llm = new FakeLlm({ tokens: ["ok"], failCalls: 1 });
    const retries: string[] = [];
    const result = await drain(llmStage(llm, { messages, signal: new AbortController().signal }, timeouts, (e) => retries.push(e.category)));
    expect(result).toEqual({ tokens: ["ok"], error: null });
    expect(llm.requests).toHaveLength(2);
    expect(retries).toEqual(["server"]);
  });

  it("gives up after the second failure", async () => {
    const llm = new FakeLlm({ failCalls: 5 });
    const result = await drain(llmStage(llm, { messages, signal: new AbortController().signal }, timeouts));
    expect(llm.requests).toHaveLength(2);
    expect((result.error as LlmError).category).toBe("server");
  });

  it("does not retry a failure that is not retryable", async () => {
    const llm = new FakeLlm({ failCalls: 5, error: new LlmError("bad key", "auth", false, 401) });
    const result = await drain(llmStage(llm, { messages, signal: new AbortController().signal }, timeouts));
    expect(llm.requests).toHaveLength(1);
    expect((result.error as LlmError).category).toBe("auth");
  });

  it("does not retry once a token was sent", async () => {
    const llm = new FakeLlm({ tokens: ["one", " two", " three"], failAfter: 2 });
    const result = await drain(llmStage(llm, { messages, signal: new AbortController().signal }, timeouts));
    expect(result.tokens).toEqual(["one", " two"]);
    expect(llm.requests).toHaveLength(1);
    expect(result.error).toBeInstanceOf(LlmError);
  });

  it("wraps unknown provider errors as non-retryable LlmErrors", async () => {
    const llm = new FakeLlm({ failCalls: 5, error: new Error("surprise with sk-secret") });
    const result = await drain(llmStage(llm, { messages, signal: new AbortController().signal }, timeouts));
    expect(llm.requests).toHaveLength(1);
    expect(result.error).toBeInstanceOf(LlmError);
    expect((result.error as LlmError).message).not.toContain("sk-secret");
  });
});

import { afterAll, beforeEach, describe, expect, it } from "bun:test";
import { createLlm } from "../../src/boot/engine-wiring.ts";
import { loadConfig } from "../../src/config.ts";
import { createEngine } from "../../src/engine/engine.ts";
import { LlmError } from "../../src/engine/llm/errors.ts";
import { createOpenAiLlm } from "../../src/engine/llm/openai.ts";
import { PREAMBLE } from "../../src/engine/prompt/index.ts";
import { refusedUrl, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { collect, textOf, turnInput, types } from "./helpers/turn.ts";

const testConfig = (env: Record<string, string>) => loadConfig({ HOOT_LOCAL_TOKENS_PER_SECOND: "0", ...env });

const server = startFakeOpenAi({ reply: ["Hi", " there!"] });
afterAll(() => server.stop());
beforeEach(() => {
  server.chats.length = 0;
});

function openAiEngine(env: Record<string, string> = {}) {
  const config = testConfig({
    HOOT_LLM_PROVIDER: "openai",
    HOOT_LLM_BASE_URL: server.url,
    HOOT_LLM_API_KEY: "sk-test-123",
    HOOT_LLM_MODEL: "tiny-model",
    HOOT_LLM_FIRST_TOKEN_TIMEOUT_MS: "2000",
    HOOT_LLM_STALL_TIMEOUT_MS: "2000",
    ...env,
  });
  return createEngine({ llm: createLlm(config), tts: null, llmTimeouts: { firstTokenMs: config.llmFirstTokenTimeoutMs, stallMs: config.llmStallTimeoutMs } });
}

describe("openai provider", () => {
  it("sends the assembled messages, temperature, model and key, and streams the reply", async () => {
    server.plan({ kind: "stream", tokens: ["Hoo", "-hoo!", " Hi", " Mia."] });
    const engine = openAiEngine();
    const events = await collect(
      engine.runTurn(
        turnInput({
          text: "what is 2+3?",
          context: { player_name: "Mia", level: 3 },
          history: [
            { role: "user", text: "hello" },
            { role: "assistant", text: "Hi there!" },
          ],
          config: {
            prompt: "You are Ollie the owl. Greet {{player_name}}.",
            temperature: 0.4,
            audio_format: "mp3",
            language_code: "en",
            safety_policy: "children_strict",
          },
        }),
      ),
    );
    expect(types(events)).toEqual(["text", "text", "text", "text", "complete"]);
    expect(textOf(events)).toBe("Hoo-hoo! Hi Mia.");
    expect(server.chats).toHaveLength(1);
    const received = server.chats[0]!;
    expect(received.path).toBe("/v1/chat/completions");
    expect(received.authorization).toBe("Bearer sk-test-123");
    expect(received.body.model).toBe("tiny-model");
    expect(received.body.temperature).toBe(0.4);
    expect(received.body.stream).toBe(true);
    const messages = received.body.messages!;
    expect(messages[0]!.role).toBe("system");
    expect(messages[0]!.content.startsWith(PREAMBLE)).toBe(true);
    expect(messages[0]!.content).toContain("You are Ollie the owl. Greet Mia.");
    expect(messages[0]!.content).toContain("- player_name: Mia\n- level: 3");
    expect(messages.slice(1)).toEqual([
      { role: "user", content: "hello" },
      { role: "assistant", content: "Hi there!" },
      { role: "user", content: "what is 2+3?" },
    ]);
  });

  it("sends no Authorization header and no temperature when neither is set", async () => {
    const engine = openAiEngine({ HOOT_LLM_API_KEY: "" });
    await collect(engine.runTurn(turnInput()));
    expect(server.chats[0]!.authorization).toBeNull();
    expect(server.chats[0]!.body.temperature).toBeUndefined();
  });

  it("retries a 500 before the first token once, then succeeds", async () => {
    server.plan({ kind: "status", status: 500 }, { kind: "stream", tokens: ["Recovered."] });
    const events = await collect(openAiEngine().runTurn(turnInput()));
    expect(server.chats).toHaveLength(2);
    expect(types(events)).toEqual(["text", "complete"]);
  });

  it("yields interaction_error after a 500 on the retry too, without the server's message", async () => {
    server.plan({ kind: "status", status: 500 }, { kind: "status", status: 503 });
    const events = await collect(openAiEngine().runTurn(turnInput()));
    expect(server.chats).toHaveLength(2);
    expect(types(events)).toEqual(["error"]);
    expect(events[0]!.frame).toMatchObject({ code: "llm_unavailable" });
    expect(JSON.stringify(events)).not.toContain("sk-");
  });

  it("does not retry a 401", async () => {
    server.plan({ kind: "status", status: 401 });
    const events = await collect(openAiEngine().runTurn(turnInput()));
    expect(server.chats).toHaveLength(1);
    expect(events.map((e) => e.frame)).toEqual([expect.objectContaining({ type: "error", code: "llm_unavailable" })]);
  });

  it("reports a refused connection as llm_unavailable after one retry", async () => {
    const config = testConfig({ HOOT_LLM_PROVIDER: "openai", HOOT_LLM_BASE_URL: await refusedUrl(), HOOT_LLM_API_KEY: "sk-test-123" });
    const llm = createOpenAiLlm({ baseUrl: config.llmBaseUrl, apiKey: config.llmApiKey, model: "m" });
    let error: unknown = null;
    try {
      for await (const _ of llm.stream({ messages: [{ role: "user", content: "hi" }], signal: new AbortController().signal })) void _;
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ category: "connection", retryable: true });
    const events = await collect(createEngine({ llm: createLlm(config), tts: null }).runTurn(turnInput()));
    expect(events.map((e) => e.frame)).toEqual([expect.objectContaining({ type: "error", code: "llm_unavailable" })]);
  });

  it("times out before the first token, aborts the request, retries once, then reports llm_timeout", async () => {
    server.plan({ kind: "stream", tokens: ["late"], headerDelayMs: 1500 }, { kind: "stream", tokens: ["late"], headerDelayMs: 1500 });
    const start = performance.now();
    const events = await collect(openAiEngine({ HOOT_LLM_FIRST_TOKEN_TIMEOUT_MS: "150" }).runTurn(turnInput()));
    const elapsed = performance.now() - start;
    expect(events.map((e) => e.frame)).toEqual([expect.objectContaining({ type: "error", code: "llm_timeout" })]);
    expect(server.chats).toHaveLength(2);
    expect(elapsed).toBeLessThan(1000);
    await Bun.sleep(20);
    expect(server.chats.map((r) => r.aborted)).toEqual([true, true]);
  });

  it("reports a stall mid-stream after the text already sent, without retrying", async () => {
    server.plan({ kind: "stream", tokens: ["One", " two", " three", " four"], stallAfter: 2 });
    const start = performance.now();
    const events = await collect(openAiEngine({ HOOT_LLM_STALL_TIMEOUT_MS: "150" }).runTurn(turnInput()));
    expect(performance.now() - start).toBeLessThan(1000);
    expect(types(events)).toEqual(["text", "text", "error"]);
    expect(textOf(events)).toBe("One two");
    expect(events.at(-1)!.frame).toMatchObject({ code: "llm_timeout" });
    expect(server.chats).toHaveLength(1);
    await Bun.sleep(20);
    expect(server.chats[0]!.aborted).toBe(true);
  });

  it("stops the request when the turn is interrupted", async () => {
    server.plan({ kind: "stream", tokens: ["a", " b", " c", " d", " e", " f"], delayMs: 100 });
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const frame of openAiEngine().runTurn(turnInput({ signal: controller.signal }))) {
      seen.push(frame.type);
      if (seen.length === 1) controller.abort();
    }
    expect(seen).toEqual(["text"]);
    await Bun.sleep(50);
    expect(server.chats.map((r) => r.aborted)).toEqual([true]);
  });
});

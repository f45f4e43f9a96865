/**
 * The moderation providers against fake servers on loopback that speak the real protocols: an
 * OpenAI-compatible /v1/moderations endpoint and a guard model through /v1/chat/completions.
 */
import { afterAll, describe, expect, it } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { builtinPolicy, createModeration, GuardModeration, moderated, OpenAiModeration } from "../../src/engine/safety/checks.ts";

const received: { path: string; body: Record<string, unknown> }[] = [];
let mode: "ok" | "slow" | "fail" | "garbage" | "prototype-names" = "ok";

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    const body = (await req.json()) as Record<string, unknown>;
    received.push({ path, body });
    if (mode === "slow") await Bun.sleep(400);
    if (mode === "fail") return new Response("boom", { status: 500 });
    if (mode === "garbage") return new Response("not json", { status: 200 });
    // Category names an object would find on its prototype (sent as raw JSON, so "__proto__" is a real key).
    if (mode === "prototype-names") {
      const flagged = /flag me/.test(String(body.input));
      return new Response(`{"results":[{"flagged":${flagged},"categories":{"constructor":true,"__proto__":true,"toString":true,"hasOwnProperty":true}}]}`, {
        headers: { "content-type": "application/json" },
      });
    }
    if (path === "/v1/moderations") {
      const input = String(body.input);
      const violent = /tiger attack/i.test(input);
      return Response.json({ results: [{ flagged: violent, categories: { violence: violent, "self-harm": false } }] });
    }
    const messages = body.messages as { role: string; content: string }[];
    const last = messages[messages.length - 1]!.content;
    return Response.json({ choices: [{ message: { role: "assistant", content: /tiger attack/i.test(last) ? "unsafe\nS1" : "safe" } }] });
  },
});
afterAll(() => server.stop(true));

const base = `http://127.0.0.1:${server.port}/v1`;
const policy = builtinPolicy("default")!;
const openai = moderated(policy, new OpenAiModeration({ baseUrl: base, apiKey: "test-key", model: "omni-moderation-latest" }), 200);
const guard = moderated(policy, new GuardModeration({ baseUrl: base, apiKey: "", model: "llama-guard3" }), 200);

describe("moderation providers", () => {
  it("adds what the moderations endpoint flags to the rules' verdict", async () => {
    mode = "ok";
    expect((await openai.checkInput("tell me about a tiger attack")).action).toBe("redirect");
    expect((await openai.checkInput("tell me about tigers")).action).toBe("allow");
    expect((await openai.checkOutput("The tiger attack left everyone hurt.")).action).toBe("drop");
  });

  it("maps only the category names it knows, never names an object finds on its prototype", async () => {
    mode = "prototype-names";
    try {
      const provider = new OpenAiModeration({ baseUrl: base, apiKey: "", model: "omni-moderation-latest" });
      const signal = new AbortController().signal;
      // Flagged with no known category: held as "custom"; not flagged: nothing.
      expect(await provider.moderate("please flag me", "input", signal)).toEqual(["custom"]);
      expect(await provider.moderate("tell me about tigers", "input", signal)).toEqual([]);
    } finally {
      mode = "ok";
    }
  });

  it("reads a guard model's safe/unsafe answer and sends the reply as the assistant turn", async () => {
    mode = "ok";
    received.length = 0;
    expect((await guard.checkOutput("A tiger attack is scary.", { context: "tell me about tigers" })).action).toBe("drop");
    expect((await guard.checkOutput("Tigers have stripes.")).action).toBe("pass");
    expect(received[0]!.path).toBe("/v1/chat/completions");
    expect(received[0]!.body.messages).toEqual([
      { role: "user", content: "tell me about tigers" },
      { role: "assistant", content: "A tiger attack is scary." },
    ]);
  });

  it("never sends personal information to the provider", async () => {
    mode = "ok";
    received.length = 0;
    const v = await openai.checkInput("my email is lily@example.com, tell me about tigers");
    expect(v.action).toBe("redact");
    expect(JSON.stringify(received)).not.toContain("lily@example.com");
    expect(received[0]!.body.input).toBe("my email is [email], tell me about tigers");
  });

  it("does not ask the provider when the rules already intervene", async () => {
    mode = "ok";
    received.length = 0;
    expect((await openai.checkInput("I want to kill myself")).action).toBe("escalate");
    expect(received).toEqual([]);
  });

  for (const failure of ["slow", "fail", "garbage"] as const) {
    it(`fails safe when the provider is ${failure}: the sentence is held and the reply ends with a safe line`, async () => {
      mode = failure;
      for (const checker of [openai, guard]) {
        const out = await checker.checkOutput("Tigers have stripes.");
        expect(out).toMatchObject({ action: "replace", end: true });
        expect(out.text).not.toContain("Tigers");
        expect(out.notices).toContainEqual({ category: "moderation", action: "block" });
        const input = await checker.checkInput("tell me about tigers");
        expect(input.action).toBe("redirect");
        expect(input.notices).toContainEqual({ category: "moderation", action: "redirect" });
      }
      mode = "ok";
    });
  }

  it("is configured by HOOT_MODERATION_* settings", () => {
    expect(createModeration(loadConfig({}))).toBeNull();
    expect(createModeration(loadConfig({ HOOT_MODERATION_PROVIDER: "openai" }))?.name).toBe("openai");
    const guardConfig = loadConfig({ HOOT_MODERATION_PROVIDER: "guard" });
    expect(guardConfig.moderationModel).toBe("llama-guard3");
    expect(createModeration(guardConfig)?.name).toBe("guard");
    expect(() => loadConfig({ HOOT_MODERATION_PROVIDER: "magic" })).toThrow(/HOOT_MODERATION_PROVIDER must be one of none, openai, guard/);
    expect(() => loadConfig({ HOOT_MODERATION_PROVIDER: "openai", HOOT_MODERATION_BASE_URL: "ftp://x" })).toThrow(/HOOT_MODERATION_BASE_URL/);
  });
});

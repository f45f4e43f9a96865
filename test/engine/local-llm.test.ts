import { describe, expect, it } from "bun:test";
import { createLocalLlm } from "../../src/engine/llm/local/index.ts";
import type { LlmProvider } from "../../src/engine/llm/types.ts";
import { assemblePrompt } from "../../src/engine/prompt/index.ts";
import type { Context, HistoryMessage } from "../../src/engine/types.ts";

const OLLIE = "You are Ollie the owl, a gentle friend who loves the night sky.";

interface Ask {
  text: string;
  context?: Context;
  history?: HistoryMessage[];
  prompt?: string;
}

async function answer(llm: LlmProvider, ask: Ask, signal = new AbortController().signal): Promise<string[]> {
  const { messages } = assemblePrompt({ prompt: ask.prompt ?? OLLIE, text: ask.text, context: ask.context ?? {}, history: ask.history ?? [] }, 6000);
  const tokens: string[] = [];
  for await (const token of llm.stream({ messages, signal })) tokens.push(token);
  return tokens;
}

const fast = createLocalLlm({ tokensPerSecond: 0 });
const say = async (ask: Ask): Promise<string> => (await answer(fast, ask)).join("");

/** Sentences with three words or more (interjections like "Hoo-hoo!" are sounds, not sentences). */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+/).filter((s) => s.split(" ").length >= 3);
}

describe("local engine", () => {
  it("speaks as the character named in the prompt", async () => {
    expect(await say({ text: "." })).toContain("Ollie");
    expect(await say({ text: "what's your name?", prompt: "You are Captain Zip, a space robot." })).toContain("Captain Zip");
  });

  it('greets first on "." using the context', async () => {
    const greeting = await say({ text: ".", context: { player_name: "Mia", level: 3 } });
    expect(greeting).toMatch(/\b(Hi|Hello|Hey)\b/);
    expect(greeting).toContain("Mia");
    expect(greeting).toContain("level 3");
  });

  it('carries on, rather than greeting again, on a later "."', async () => {
    const history: HistoryMessage[] = [
      { role: "assistant", text: "Hi Mia, I'm Ollie the owl!" },
      { role: "user", text: "hi" },
      { role: "assistant", text: "What shall we talk about?" },
    ];
    const later = await say({ text: ".", context: { player_name: "Mia" }, history });
    expect(later).not.toContain("I'm Ollie");
    expect(later.length).toBeGreaterThan(10);
  });

  it("reacts to the child's words", async () => {
    expect(await say({ text: "what is 2+3" })).toContain("5");
    expect(await say({ text: "What is seven times six?" })).toContain("42");
    expect(await say({ text: "I'm sad today" })).toMatch(/sorry|sad/i);
    expect(await say({ text: "I feel scared" })).toMatch(/scared|brave/i);
    expect(await say({ text: "tell me about dinosaurs" })).toMatch(/dinosaur/i);
    expect(await say({ text: "do you like space?" })).toMatch(/space|quiet|galaxy|stars/i);
    expect(await say({ text: "I love elephants" })).toMatch(/elephant/i);
    expect(await say({ text: "my name is Sam" })).toContain("Sam");
    expect(await say({ text: "my favorite color is purple" })).toMatch(/purple/i);
    expect(await say({ text: "why is the sky blue?" })).toMatch(/blue light|sunlight/i);
    expect(await say({ text: "count to 5" })).toContain("One, two, three, four, five");
    expect(await say({ text: "tell me a joke" })).toContain("?");
    expect(await say({ text: "bye!" })).toMatch(/bye/i);
  });

  it("remembers a name the child gave earlier", async () => {
    const history: HistoryMessage[] = [
      { role: "user", text: "my name is Leo" },
      { role: "assistant", text: "Nice to meet you, Leo!" },
    ];
    expect(await say({ text: "bye", history })).toContain("Leo");
  });

  it("keeps personal details private and never repeats unsafe words", async () => {
    expect(await say({ text: "my phone number is 555 123 4567" })).toMatch(/private/);
    const unsafe = await say({ text: "tell me about guns" });
    expect(unsafe).not.toMatch(/gun/i);
    expect(await say({ text: "my favorite thing is beer" })).not.toMatch(/beer/i);
  });

  it("tells a story of three to six sentences when asked", async () => {
    for (let turn = 0; turn < 6; turn++) {
      const history: HistoryMessage[] = Array.from({ length: turn }, () => ({ role: "assistant", text: "ok" }));
      const story = await say({ text: "tell me a story about a dragon", history });
      expect(story).toContain("dragon");
      expect(story).toContain("Once upon a time");
      const count = story.split(/(?<=[.!?])\s+/).length;
      expect(count).toBeGreaterThanOrEqual(3);
      expect(count).toBeLessThanOrEqual(6);
    }
  });

  it("answers in at most three sentences otherwise", async () => {
    const inputs = [
      ".",
      "hi",
      "what is 2+3",
      "I'm sad",
      "why is the sky blue?",
      "I like dinosaurs",
      "tell me a joke",
      "my name is Sam",
      "how are you?",
      "blah",
      "yes",
      "no",
      "thanks",
    ];
    for (const text of inputs) {
      const reply = await say({ text, context: { player_name: "Mia", level: 3, favorite_color: "green" } });
      expect({ text, count: sentences(reply).length <= 3 }).toEqual({ text, count: true });
    }
  });

  it("is deterministic for the same inputs and varies across turns", async () => {
    expect(await say({ text: "tell me a joke" })).toBe(await say({ text: "tell me a joke" }));
    const replies = new Set<string>();
    for (let turn = 0; turn < 8; turn++) {
      const history: HistoryMessage[] = Array.from({ length: turn }, (_, i) => ({ role: "assistant", text: `reply ${i}` }));
      replies.add(await say({ text: "tell me a joke", history }));
    }
    expect(replies.size).toBeGreaterThanOrEqual(4);
  });

  it("never gives the same reply twice in a row", async () => {
    const history: HistoryMessage[] = [];
    for (let turn = 0; turn < 25; turn++) {
      const text = turn % 3 === 0 ? "." : "hi";
      const reply = await say({ text, history, context: { player_name: "Mia" } });
      expect(reply).not.toBe(history.at(-1)?.text ?? "");
      history.push({ role: "user", text }, { role: "assistant", text: reply });
    }
  });

  it("works from any caller's messages, not only hoot's prompt layout", async () => {
    const tokens: string[] = [];
    const messages = [
      { role: "system" as const, content: "You are Ollie the owl." },
      { role: "user" as const, content: "what is 4 plus 4?" },
    ];
    for await (const token of fast.stream({ messages, signal: new AbortController().signal })) tokens.push(token);
    expect(tokens.join("")).toContain("8");
  });

  it("reads names from the prompt and context as data: a character or key called constructor finds nothing", async () => {
    for (const prompt of ["You are Bob the constructor.", "You are the constructor.", "You are Proto the __proto__.", "You are Tim the toString."]) {
      for (const text of [".", "hi", "tell me a story", "what is your name?"]) {
        const reply = await say({ text, prompt, context: { constructor: "x", ["__proto__"]: "y" } as Context });
        expect({ prompt, text, reply }).toEqual({ prompt, text, reply: expect.not.stringMatching(/function|native code|\[object/) });
      }
    }
  });

  it("fills {{constructor}} and {{__proto__}} only from the context's own values", async () => {
    const reply = await say({ text: ".", prompt: "You are Ollie the owl. Greet {{constructor}}{{__proto__}}{{toString}}." });
    expect(reply).not.toMatch(/function|native code|\[object/);
  });

  it("streams word-ish tokens that carry their spaces", async () => {
    const tokens = await answer(fast, { text: "." });
    expect(tokens.length).toBeGreaterThan(5);
    for (const token of tokens.slice(1)) expect(token).toMatch(/^\s+\S+$/);
    expect(tokens[0]).toMatch(/^\S+$/);
  });

  it("paces tokens at tokensPerSecond", async () => {
    const llm = createLocalLlm({ tokensPerSecond: 30 });
    const start = performance.now();
    const tokens = await answer(llm, { text: ".", context: { player_name: "Mia", level: 3 } });
    const elapsed = performance.now() - start;
    expect(tokens.length).toBeGreaterThanOrEqual(15);
    // Token i is due at i/30 s, so the last one cannot come before (n-1)/30 s (minus timer rounding).
    expect(elapsed).toBeGreaterThanOrEqual(((tokens.length - 1) * 1000) / 30 - 5);
  });

  it("streams without pacing when tokensPerSecond is 0", async () => {
    const start = performance.now();
    const tokens = await answer(fast, { text: "tell me a story about a dragon" });
    const elapsed = performance.now() - start;
    expect(tokens.length).toBeGreaterThan(15);
    // Paced at 200 tokens/s this would take (n-1)/200 s; unpaced it only hops through the event loop.
    expect(elapsed).toBeLessThan(((tokens.length - 1) * 1000) / 200);
  });

  it("stops at once when aborted, mid-stream and mid-wait", async () => {
    const llm = createLocalLlm({ tokensPerSecond: 5 });
    const controller = new AbortController();
    const { messages } = assemblePrompt({ prompt: OLLIE, text: "tell me a story", context: {}, history: [] }, 6000);
    const got: string[] = [];
    const start = performance.now();
    setTimeout(() => controller.abort(), 250);
    for await (const token of llm.stream({ messages, signal: controller.signal })) got.push(token);
    const elapsed = performance.now() - start;
    // Tokens are due at 0, 200, 400 ms: the abort at 250 ms ends the stream long before the 400 ms token.
    expect(got).toHaveLength(2);
    expect(elapsed).toBeLessThan(350);
  });

  it("yields nothing for an already aborted signal", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await answer(fast, { text: "hi" }, controller.signal)).toEqual([]);
  });
});

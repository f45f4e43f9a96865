/**
 * The prompt fits the model's budget: a long context value (the Unity SDK's `conversation_history`) keeps its
 * newest end, short values stay whole, and the remembered history shares what is left.
 */
import { describe, expect, it } from "bun:test";
import { assemblePrompt, CUT_MARK, cutToTail, fitContext } from "../../src/engine/prompt/index.ts";
import type { HistoryMessage } from "../../src/engine/types.ts";

const PROMPT = "You are Ollie the owl. Talk with {{player_name}}.";
/** "player_turn_0: line 0 …" lines, newest last, about `chars` long in all. */
function dialogue(chars: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < chars; i++) lines.push(`player_turn_${i % 3}: this is line number ${i} of the dialogue so far`);
  return lines.join("\n");
}
const total = (messages: { content: string }[]) => messages.reduce((n, m) => n + m.content.length, 0);

describe("cutToTail", () => {
  it("keeps the end of a long text behind a mark, from a line or word boundary", () => {
    expect(cutToTail("short", 10)).toBe("short");
    expect(cutToTail("one two three four", 12)).toBe(`${CUT_MARK}three four`);
    expect(cutToTail("a: first line\nb: second line\nc: third", 24)).toBe(`${CUT_MARK}b: second line\nc: third`);
    expect(cutToTail("abcdef", 1)).toBe("");
  });
});

describe("fitContext", () => {
  it("returns the context itself when it fits", () => {
    const context = { player_name: "Mia", level: 3 };
    expect(fitContext(context, new Map(), 1000)).toBe(context);
  });

  it("cuts the longest string values first and keeps short values, numbers and booleans whole", () => {
    const history = dialogue(5000);
    const fitted = fitContext({ player_name: "Mia", level: 3, sound: true, conversation_history: history }, new Map(), 1200);
    expect(fitted).toMatchObject({ player_name: "Mia", level: 3, sound: true });
    const cut = fitted.conversation_history as string;
    expect(cut.startsWith(CUT_MARK)).toBe(true);
    expect(history.endsWith(cut.slice(CUT_MARK.length))).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(1200);
    expect(cut.length).toBeGreaterThan(1000);
  });

  it("counts a value once more for each placeholder that shows it", () => {
    const context = { a: "x".repeat(1000), b: "y".repeat(1000) };
    const fitted = fitContext(context, new Map([["a", 2]]), 1000);
    const a = (fitted.a as string).length;
    const b = (fitted.b as string).length;
    expect(a * 3 + b).toBeLessThanOrEqual(1000);
    expect(a).toBe(b);
  });

  it("drops entries from the end only when even their keys do not fit", () => {
    const fitted = fitContext({ first: "a", second: "b".repeat(100) }, new Map(), 12);
    expect(Object.keys(fitted)).toEqual(["first"]);
  });
});

describe("assemblePrompt within a budget", () => {
  it("sends a small context exactly as before", () => {
    const input = { prompt: PROMPT, text: "hi", context: { player_name: "Mia" }, history: [] };
    expect(assemblePrompt(input, 6000, 24_000).messages).toEqual(assemblePrompt(input, 6000, 1_000_000).messages);
    expect(assemblePrompt(input, 6000).contextCut).toBe(false);
  });

  it("trims a long conversation_history to the budget, keeping its newest lines and the child's words", () => {
    const history = dialogue(20_000);
    const { messages, contextCut } = assemblePrompt(
      { prompt: PROMPT, text: "what happened?", context: { player_name: "Mia", conversation_history: history }, history: [] },
      6000,
      8000,
    );
    expect(contextCut).toBe(true);
    expect(total(messages)).toBeLessThanOrEqual(8000);
    const system = messages[0]!.content;
    const newest = history.split("\n").at(-1)!;
    expect(system).toContain(newest);
    expect(system).not.toContain(history.split("\n")[0]!);
    expect(system).toContain("Talk with Mia.");
    expect(messages.at(-1)).toEqual({ role: "user", content: "what happened?" });
  });

  it("shares the room with the remembered history: both are kept in part, and the whole fits", () => {
    const remembered: HistoryMessage[] = Array.from({ length: 60 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      text: `remembered message ${i} `.padEnd(100, "."),
    }));
    const { messages, historyKept } = assemblePrompt(
      { prompt: PROMPT, text: "hi", context: { conversation_history: dialogue(20_000) }, history: remembered },
      6000,
      10_000,
    );
    expect(total(messages)).toBeLessThanOrEqual(10_000);
    expect(historyKept).toBeGreaterThan(10);
    expect(historyKept).toBeLessThan(60);
    expect(messages[0]!.content).toContain(CUT_MARK);
  });

  it("keeps the fixed parts even when the budget is smaller than they are", () => {
    const { messages } = assemblePrompt(
      { prompt: PROMPT, text: "hi", context: { conversation_history: dialogue(3000) }, history: [{ role: "user", text: "old" }] },
      6000,
      100,
    );
    expect(messages[0]!.content).toContain("You are Ollie the owl.");
    expect(messages.at(-1)).toEqual({ role: "user", content: "hi" });
    expect(messages).toHaveLength(2);
  });
});

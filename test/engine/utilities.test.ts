/**
 * The utilities library on its own: the local rules (table-driven), answer matching for model replies, the
 * runner (deadlines, failures, safety guards) and the turn hooks around a scripted inner turn (order of
 * frames, {{name}} in the context, interruption, a failing turn), with a fake utility model that implements
 * the real interface.
 */
import { describe, expect, it } from "bun:test";
import type { TurnFrame } from "../../src/engine/frames.ts";
import { silentLogger } from "../../src/engine/logger.ts";
import { sleep } from "../../src/engine/pipeline/abort.ts";
import { builtinPolicy } from "../../src/engine/safety/checks.ts";
import type { TurnInput } from "../../src/engine/types.ts";
import {
  classifyText,
  extractText,
  guardUtilityInput,
  matchAnswer,
  runUtilitySet,
  type Utility,
  type UtilityChecker,
  type UtilityModel,
  type UtilityQuery,
  withUtilities,
} from "../../src/engine/utilities/index.ts";

describe("local rules: classify", () => {
  const YES_NO = ["yes", "no"];
  const cases: [string, string, readonly string[], string][] = [
    ["Did the user mention cats in the last message?", "I love my cat", YES_NO, "yes"],
    ["Did the user mention cats in the last message?", "I have a dog", YES_NO, "no"],
    ["Did the user mention cats?", "CATS are the best", ["Yes", "No"], "Yes"],
    ["Did the user say 'bye', 'goodbye', or 'end conversation'?", "ok goodbye", YES_NO, "yes"],
    ["Did the user say 'bye', 'goodbye', or 'end conversation'?", "can we end the conversation", YES_NO, "no"],
    ["Did the user say 'bye', 'goodbye', or 'end conversation'?", "please end conversation now", YES_NO, "yes"],
    ["Did the user's message mention a message?", "hello", YES_NO, "no"],
    ["Is the child sad?", "I am crying", ["true", "false"], "true"],
    ["Is the child sad?", "I am fine", ["true", "false"], "false"],
    ["What is the user's sentiment?", "I love this game, it is awesome", ["positive", "neutral", "negative"], "positive"],
    ["What is the user's sentiment?", "I hate homework", ["positive", "neutral", "negative"], "negative"],
    ["What is the user's sentiment?", "I don't like it", ["positive", "neutral", "negative"], "negative"],
    ["What is the user's sentiment?", "the sky is blue", ["positive", "neutral", "negative"], "neutral"],
    ["Which topic?", "my order was charged twice", ["billing", "technical_support", "general"], "billing"],
    ["Which topic?", "the app keeps crashing with an error", ["billing", "technical_support", "general"], "technical_support"],
    ["Which topic?", "what time is it", ["billing", "technical_support", "general"], "general"],
    ["Which animal?", "I saw a horse", ["dog", "horse", "cat"], "horse"],
    ["Which animal?", "nothing here", ["dog", "horse", "cat"], "dog"],
  ];
  for (const [question, text, answers, expected] of cases) {
    it(`${JSON.stringify(text)} -> ${expected} (${question})`, () => {
      expect(classifyText(question, text, answers)).toBe(expected);
    });
  }
});

describe("local rules: extract", () => {
  const cases: [string, string, string][] = [
    ["Extract the user's order number if mentioned.", "it is order 123456 please", "123456"],
    ["How old is the child?", "I am eight years old", "8"],
    ["Extract the child's favourite colour", "I like green and blue", "green"],
    ["Extract the pet", "my puppies are cute", "puppies"],
    ["Extract the main topic of discussion.", "dinosaurs are cool, I love dinosaurs", "dinosaurs"],
    ["Extract the order number", "no number here", ""],
    ["Extract anything", "", ""],
  ];
  for (const [prompt, text, expected] of cases) {
    it(`${JSON.stringify(text)} -> ${JSON.stringify(expected)} (${prompt})`, () => {
      expect(extractText(prompt, text)).toBe(expected);
    });
  }
});

describe("a model's reply matched to the answers", () => {
  const answers = ["Yes", "No", "technical support"];
  it.each([
    ["Yes", "Yes"],
    ["yes", "Yes"],
    ['"No."', "No"],
    ["Technical Support", "technical support"],
    ["The answer is: no", "No"],
    ["yes and no", null],
    ["maybe", null],
    [null, null],
  ] as const)("%p -> %p", (reply, expected) => {
    expect(matchAnswer(reply, answers)).toBe(expected);
  });
});

/** A utility model whose answers, delays and failures a test sets per utility instruction. */
class FakeModel implements UtilityModel {
  readonly name = "fake";
  readonly queries: UtilityQuery[] = [];
  constructor(private readonly behave: (query: UtilityQuery) => Promise<string> | string = (q) => `answer to ${q.instruction}`) {}
  async classify(query: UtilityQuery, answers: readonly string[]): Promise<string> {
    this.queries.push(query);
    const answer = await this.behave(query);
    return answers.includes(answer) ? answer : (answers[0] as string);
  }
  async extract(query: UtilityQuery): Promise<string> {
    this.queries.push(query);
    return this.behave(query);
  }
}

const strict = builtinPolicy("children_strict") as UtilityChecker;
const extract = (prompt: string): Utility => ({ type: "extract", extract_prompt: prompt });

function turnInput(
  overrides: Partial<TurnInput> & { utilities?: NonNullable<TurnInput["config"]["utilities"]> },
  signal = new AbortController().signal,
): TurnInput {
  return {
    text: overrides.text ?? "I love my cat",
    context: overrides.context ?? { player: "Mia" },
    history: overrides.history ?? [],
    audioOutput: false,
    signal,
    config: { prompt: "p", audio_format: "mp3", language_code: "en", safety_policy: "children_strict", utilities: overrides.utilities },
  };
}

/** A scripted inner turn: records its input, yields `frames` with a delay between them. */
function scriptedTurn(frames: TurnFrame[], delayMs = 0) {
  const seen: TurnInput[] = [];
  const run = async function* (input: TurnInput): AsyncGenerator<TurnFrame> {
    seen.push(input);
    for (const frame of frames) {
      if (delayMs) await sleep(delayMs, input.signal);
      if (input.signal.aborted) return;
      yield frame;
    }
  };
  return { run, seen };
}

async function collect(frames: AsyncIterable<TurnFrame>): Promise<TurnFrame[]> {
  const out: TurnFrame[] = [];
  for await (const frame of frames) out.push(frame);
  return out;
}

const REPLY: TurnFrame[] = [
  { type: "text", text: "Hello" },
  { type: "text", text: " there." },
  { type: "complete", text: "Hello there.", audio: false },
];

describe("the turn hooks", () => {
  it("puts on_input data first, adds answers to the context, sends non-blocking data before complete and on_output data just before it", async () => {
    const model = new FakeModel(async (q) => {
      if (q.instruction === "slow") await Bun.sleep(30);
      return q.instruction;
    });
    const definitions = new Map<string, Utility>([
      ["first", extract("first")],
      ["slow", extract("slow")],
      ["after", extract("after")],
    ]);
    const inner = scriptedTurn(REPLY, 5);
    const input = turnInput({ utilities: { definitions, onInput: ["first"], onInputNonBlocking: ["slow"], onOutput: ["after"] } });
    const frames = await collect(withUtilities(input, { model, timeoutMs: 1000, logger: silentLogger, checker: () => strict }, inner.run));
    expect(frames.map((f) => (f.type === "data" ? `data:${Object.keys(f.data)}` : f.type))).toEqual([
      "data:first",
      "text",
      "text",
      "data:slow",
      "data:after",
      "complete",
    ]);
    expect(inner.seen[0]!.context).toEqual({ player: "Mia", first: "first" });
    const after = model.queries.find((q) => q.instruction === "after")!;
    expect(after.subject).toEqual({ role: "character", text: "Hello there." });
    expect(after.history.at(-1)).toEqual({ role: "user", text: "I love my cat" });
  });

  it("sends a fast non-blocking result as soon as it is ready, between reply frames", async () => {
    const model = new FakeModel((q) => q.instruction);
    const inner = scriptedTurn(REPLY, 40);
    const input = turnInput({ utilities: { definitions: new Map([["quick", extract("quick")]]), onInput: [], onInputNonBlocking: ["quick"], onOutput: [] } });
    const frames = await collect(withUtilities(input, { model, timeoutMs: 1000, logger: silentLogger, checker: () => strict }, inner.run));
    expect(frames.map((f) => f.type)).toEqual(["data", "text", "text", "complete"]);
  });

  it("yields nothing more once the turn is interrupted during on_input, and never starts the reply", async () => {
    const controller = new AbortController();
    const model = new FakeModel(async (q) => {
      await Bun.sleep(50);
      return q.instruction;
    });
    const inner = scriptedTurn(REPLY);
    const input = turnInput(
      { utilities: { definitions: new Map([["a", extract("a")]]), onInput: ["a"], onInputNonBlocking: [], onOutput: [] } },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 10);
    const frames = await collect(withUtilities(input, { model, timeoutMs: 1000, logger: silentLogger, checker: () => strict }, inner.run));
    expect(frames).toEqual([]);
    expect(inner.seen).toHaveLength(0);
  });

  it("drops pending utilities when the turn fails: the error frame is last", async () => {
    const model = new FakeModel(async (q) => {
      await Bun.sleep(200);
      return q.instruction;
    });
    const inner = scriptedTurn([
      { type: "text", text: "Hi" },
      { type: "error", code: "llm_unavailable", error: "down" },
    ]);
    const input = turnInput({
      utilities: { definitions: new Map([["late", extract("late")]]), onInput: [], onInputNonBlocking: ["late"], onOutput: ["late"] },
    });
    const began = performance.now();
    const frames = await collect(withUtilities(input, { model, timeoutMs: 5000, logger: silentLogger, checker: () => strict }, inner.run));
    expect(frames.map((f) => f.type)).toEqual(["text", "error"]);
    expect(performance.now() - began).toBeLessThan(180);
  });

  it("gives a '.' turn's on_input utilities no subject, only the conversation", async () => {
    const model = new FakeModel((q) => q.instruction);
    const inner = scriptedTurn(REPLY);
    const input = turnInput({
      text: ".",
      history: [{ role: "assistant", text: "Hi!" }],
      utilities: { definitions: new Map([["a", extract("a")]]), onInput: ["a"], onInputNonBlocking: [], onOutput: [] },
    });
    await collect(withUtilities(input, { model, timeoutMs: 1000, logger: silentLogger, checker: () => strict }, inner.run));
    expect(model.queries[0]!.subject).toBeNull();
    expect(model.queries[0]!.history).toEqual([{ role: "assistant", text: "Hi!" }]);
  });

  it("passes frames through untouched when no utility is asked for", async () => {
    const inner = scriptedTurn(REPLY);
    const frames = await collect(
      withUtilities(turnInput({}), { model: new FakeModel(), timeoutMs: 1000, logger: silentLogger, checker: () => strict }, inner.run),
    );
    expect(frames).toEqual(REPLY);
  });
});

describe("the runner", () => {
  const request = (definitions: Map<string, Utility>, names: string[], checker: UtilityChecker = strict) => ({
    definitions,
    names,
    context: { who: "Mia" },
    subject: { role: "child" as const, text: "hi" },
    history: [],
    checker,
    signal: new AbortController().signal,
  });

  it("gives utility_timeout for a model that never answers, even one that ignores its signal", async () => {
    const model = new FakeModel(() => new Promise<string>(() => {}));
    const result = await runUtilitySet(request(new Map([["stuck", extract("stuck")]]), ["stuck"]), { model, timeoutMs: 50, logger: silentLogger });
    expect(result.data).toEqual({ stuck: { error: "the utility took longer than 50 ms", code: "utility_timeout" } });
  });

  it("gives utility_failed for a throw, without its message", async () => {
    const model = new FakeModel(() => {
      throw new Error("secret internal detail sk-123");
    });
    const result = await runUtilitySet(request(new Map([["bad", extract("bad")]]), ["bad"]), { model, timeoutMs: 500, logger: silentLogger });
    expect(result.data).toEqual({ bad: { error: "the utility failed", code: "utility_failed" } });
  });

  it("withholds the answer when the safety check itself fails (fails safe)", async () => {
    const broken: UtilityChecker = { checkInput: (t) => strict.checkInput(t), checkOutput: () => Promise.reject(new Error("moderation down")) };
    const result = await runUtilitySet(request(new Map([["x", extract("x")]]), ["x"], broken), {
      model: new FakeModel(),
      timeoutMs: 500,
      logger: silentLogger,
    });
    expect(result.data).toEqual({ x: { error: "the answer could not be checked by the safety policy", code: "utility_blocked" } });
  });

  it("redacts an answer the policy redacts and reports the notice", async () => {
    const model = new FakeModel(() => "call 555-123-4567");
    const result = await runUtilitySet(request(new Map([["phone", extract("phone")]]), ["phone"]), { model, timeoutMs: 500, logger: silentLogger });
    expect(JSON.stringify(result.data)).not.toContain("555-123-4567");
    expect(result.notices.length).toBeGreaterThan(0);
  });

  it("fills templates from the context and keeps user-supplied names as plain keys", async () => {
    const model = new FakeModel((q) => q.instruction);
    const definitions = new Map<string, Utility>([
      ["__proto__", extract("hello {{who}}")],
      ["constructor", extract("bye {{ who }} {{missing}}")],
    ]);
    const result = await runUtilitySet(request(definitions, ["__proto__", "constructor", "__proto__"]), { model, timeoutMs: 500, logger: silentLogger });
    expect(Object.keys(result.data)).toEqual(["__proto__", "constructor"]);
    expect(Object.hasOwn(result.data, "__proto__")).toBe(true);
    expect(result.data["constructor"]).toBe("bye Mia");
    expect(JSON.parse(JSON.stringify(result.data))).toEqual({ ["__proto__"]: "hello Mia", constructor: "bye Mia" });
  });

  it("shows utilities the child's words as the model sees them", async () => {
    expect(await guardUtilityInput(strict, "my email is kid@example.com")).toBe("my email is [email]");
  });
});

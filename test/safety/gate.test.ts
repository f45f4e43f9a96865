import { describe, expect, it } from "bun:test";
import { chunkStage } from "../../src/engine/chunker/index.ts";
import type { ReplyFrame } from "../../src/engine/frames.ts";
import { builtinPolicy, gatedSafetyStage, type Incident, OutputGate } from "../../src/engine/safety/checks.ts";

const policy = builtinPolicy("default")!;

async function* tokens(list: string[]): AsyncGenerator<string> {
  for (const t of list) yield t;
}

async function run(list: string[], incidents: Incident[] = []): Promise<ReplyFrame[]> {
  const stage = gatedSafetyStage(
    () => (s) => policy.checkOutput(s),
    (i) => incidents.push(i),
  );
  const out: ReplyFrame[] = [];
  for await (const f of stage.run(chunkStage(tokens(list)), {
    signal: new AbortController().signal,
    context: {},
    languageCode: "en",
    policy: "children_strict",
  }))
    out.push(f);
  return out;
}

const text = (frames: ReplyFrame[]): string => frames.flatMap((f) => (f.type === "text" ? [f.text] : [])).join("");
const speech = (frames: ReplyFrame[]): string[] => frames.flatMap((f) => (f.type === "speech" ? [f.text] : []));

describe("output gate", () => {
  it("releases safe text unchanged, sentence by sentence", async () => {
    const frames = await run(["Hello", " there,", " my friend!", " Dragons", " are", " big."]);
    expect(text(frames)).toBe("Hello there, my friend! Dragons are big.");
    expect(speech(frames)).toEqual(["Hello there, my friend!", "Dragons are big."]);
  });

  it("never leaks a piece of an unsafe sentence split across tokens, and ends the reply with a safe line", async () => {
    const incidents: Incident[] = [];
    const frames = await run(["Sure!", " Se", "nd me a pho", "to of your", "self.", " Then", " we can meet."], incidents);
    const shown = text(frames);
    expect(shown.startsWith("Sure! ")).toBe(true);
    for (const piece of ["Se", "pho to", "photo of", "we can meet"]) expect(shown).not.toContain(piece);
    expect(speech(frames).join(" ")).not.toMatch(/photo of|we can meet/);
    expect(frames.filter((f) => f.type === "notice")).toEqual([{ type: "notice", category: "stranger_danger", action: "redirect" }]);
    expect(incidents).toEqual([]);
  });

  it("drops a blocked sentence and carries on", async () => {
    const frames = await run(["Oh", " shit,", " I", " forgot!", " Let's", " play", " a game."]);
    expect(text(frames)).not.toContain("shit");
    expect(text(frames)).toContain("Let's play a game.");
    expect(frames).toContainEqual({ type: "notice", category: "profanity", action: "block" });
  });

  it("catches a sentence cut into a first clause and the rest", async () => {
    const frames = await run(["If", " you", " feel", " sad,", " you", " could", " hurt", " yourself", " a little."]);
    expect(text(frames)).not.toContain("hurt");
  });

  it("holds text until its unit passes (nothing is released before the check)", async () => {
    const seen: string[] = [];
    const gate = new OutputGate((s) => {
      seen.push(s);
      return policy.checkOutput(s);
    });
    gate.push("Hi ");
    gate.push("there.");
    expect(seen).toEqual([]);
    expect(await gate.unit("Hi there.")).toEqual([
      { type: "text", text: "Hi there." },
      { type: "speech", text: "Hi there." },
    ]);
    gate.push(" 🙂");
    expect(await gate.end()).toEqual([{ type: "text", text: " 🙂" }]);
  });

  it("redacts contact details the model writes", async () => {
    const frames = await run(["Call", " me at", " 555-867-5309", " today."]);
    expect(text(frames)).toBe("Call me at [phone number] today.");
  });
});

import { describe, expect, it } from "bun:test";
import { type ChunkerOptions, chunkStage, SentenceChunker } from "../../src/engine/chunker/index.ts";
import type { ReplyFrame } from "../../src/engine/frames.ts";

interface Case {
  name: string;
  text: string;
  units: string[];
  options?: ChunkerOptions;
}

const SENTENCES: ChunkerOptions = { firstClause: false };

const CASES: Case[] = [
  { name: "plain sentences", text: "Hello there. How are you?", units: ["Hello there.", "How are you?"], options: SENTENCES },
  { name: "abbreviations Mr. and Dr.", text: "Mr. Smith is here. Dr. Lee too.", units: ["Mr. Smith is here.", "Dr. Lee too."], options: SENTENCES },
  { name: "abbreviation e.g.", text: "We like fruit e.g. Apples and pears. Yum!", units: ["We like fruit e.g. Apples and pears.", "Yum!"], options: SENTENCES },
  { name: "decimal number", text: "It is 2.54 cm long. Wow.", units: ["It is 2.54 cm long.", "Wow."], options: SENTENCES },
  { name: "number then full stop", text: "I am 3. You are 4.", units: ["I am 3.", "You are 4."], options: SENTENCES },
  { name: "number at the very end", text: "I am 3.", units: ["I am 3."], options: SENTENCES },
  { name: "ellipsis before lowercase", text: "Well... maybe later. Okay!", units: ["Well... maybe later.", "Okay!"], options: SENTENCES },
  { name: "ellipsis before a new sentence", text: "Hmm... Let me think.", units: ["Hmm...", "Let me think."], options: SENTENCES },
  { name: "unicode ellipsis", text: "Wait… What was that?", units: ["Wait…", "What was that?"], options: SENTENCES },
  { name: "?! and !! runs", text: "Really?! Wow!! Cool?", units: ["Really?!", "Wow!!", "Cool?"], options: SENTENCES },
  { name: "emoji after a sentence joins the next", text: "Great job! 🎉 Let's go.", units: ["Great job!", "🎉 Let's go."], options: SENTENCES },
  { name: "emoji inside a sentence", text: "I love stars 🌟. Do you?", units: ["I love stars 🌟.", "Do you?"], options: SENTENCES },
  { name: "emoji-only tail is not spoken", text: "Yay! 🎉🎉", units: ["Yay!"], options: SENTENCES },
  { name: "quote after the full stop", text: 'He said "hi." Then he left.', units: ['He said "hi."', "Then he left."], options: SENTENCES },
  { name: "curly quote after the question mark", text: "She asked “Why?” It was late.", units: ["She asked “Why?”", "It was late."], options: SENTENCES },
  { name: "quoted speech followed by lowercase", text: '"Hello!" said the owl. Hi.', units: ['"Hello!" said the owl.', "Hi."], options: SENTENCES },
  { name: "CJK full stops", text: "你好。今天天气很好！我们去玩吧？", units: ["你好。", "今天天气很好！", "我们去玩吧？"], options: SENTENCES },
  { name: "Japanese", text: "こんにちは。元気ですか？", units: ["こんにちは。", "元気ですか？"], options: SENTENCES },
  { name: "CJK closing bracket", text: "他说「你好。」然后走了。", units: ["他说「你好。」", "然后走了。"], options: SENTENCES },
  { name: "no punctuation at all is flushed at the end", text: "hello there my friend", units: ["hello there my friend"], options: SENTENCES },
  { name: "line breaks end units", text: "Line one\nLine two\n\n", units: ["Line one", "Line two"], options: SENTENCES },
  { name: "leading blank lines", text: "\n\nHello.\n", units: ["Hello."], options: SENTENCES },
  { name: "glued punctuation is not an end", text: "Visit hoot.example today! Ok.", units: ["Visit hoot.example today!", "Ok."], options: SENTENCES },
  {
    name: "first clause at a comma after three words",
    text: "Well, hello there, my little friend! How are you?",
    units: ["Well, hello there,", "my little friend!", "How are you?"],
  },
  { name: "first clause waits for three words", text: "Hi, Mia! I am Ollie, the owl.", units: ["Hi, Mia!", "I am Ollie, the owl."] },
  {
    name: "only the first clause is cut early",
    text: "Once upon a time, there was an owl. It was wise, kind and clever.",
    units: ["Once upon a time,", "there was an owl.", "It was wise, kind and clever."],
  },
  {
    name: "thousands separator is not a clause",
    text: "There were 1,000 stars in the sky, all twinkling.",
    units: ["There were 1,000 stars in the sky,", "all twinkling."],
  },
  { name: "clause at a dash", text: "Guess what I found — a shiny rock!", units: ["Guess what I found —", "a shiny rock!"] },
  { name: "clause at a CJK comma", text: "今天我们一起去公园玩，好不好？", units: ["今天我们一起去公园玩，", "好不好？"] },
  { name: "comma at the very end", text: "one two three,", units: ["one two three,"] },
];

/** Feeds `pieces` and flushes, returning every unit. */
function run(pieces: string[], options?: ChunkerOptions): string[] {
  const chunker = new SentenceChunker(options);
  const units = pieces.flatMap((piece) => chunker.push(piece));
  return [...units, ...chunker.flush()];
}

/** Deterministic pseudo-random split sizes, so the test is repeatable. */
function randomPieces(text: string, seed: number): string[] {
  const pieces: string[] = [];
  let state = seed;
  for (let i = 0; i < text.length; ) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const size = 1 + (state % 5);
    pieces.push(text.slice(i, i + size));
    i += size;
  }
  return pieces;
}

describe("SentenceChunker", () => {
  for (const c of CASES) {
    it(`splits: ${c.name}`, () => {
      expect(run([c.text], c.options)).toEqual(c.units);
    });
  }

  it("gives the same units fed one UTF-16 unit, one code point, word tokens or random pieces at a time", () => {
    for (const c of CASES) {
      const whole = run([c.text], c.options);
      expect({ name: c.name, units: run(c.text.split(""), c.options) }).toEqual({ name: c.name, units: whole });
      expect({ name: c.name, units: run(Array.from(c.text), c.options) }).toEqual({ name: c.name, units: whole });
      expect({ name: c.name, units: run(c.text.match(/\s*\S+\s*/g) ?? [], c.options) }).toEqual({ name: c.name, units: whole });
      for (let seed = 1; seed <= 5; seed++) {
        expect({ name: c.name, seed, units: run(randomPieces(c.text, seed), c.options) }).toEqual({ name: c.name, seed, units: whole });
      }
    }
  });

  it("emits a sentence as soon as the next word shows it has ended", () => {
    const chunker = new SentenceChunker({ firstClause: false });
    expect(chunker.push("Hello there!")).toEqual([]);
    expect(chunker.push(" How")).toEqual(["Hello there!"]);
    expect(chunker.push(" are you?")).toEqual([]);
    expect(chunker.flush()).toEqual(["How are you?"]);
  });

  it("waits for the next character before deciding on 2. versus 2.54", () => {
    const chunker = new SentenceChunker({ firstClause: false });
    expect(chunker.push("It costs 2.")).toEqual([]);
    expect(chunker.push("54 coins.")).toEqual([]);
    expect(chunker.flush()).toEqual(["It costs 2.54 coins."]);
  });

  it("cuts a long unit without punctuation at a space after maxChars", () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const units = run([words], { firstClause: false, maxChars: 50 });
    expect(units.length).toBeGreaterThan(1);
    expect(units.join(" ")).toBe(words);
    for (const unit of units.slice(0, -1)) expect(unit.length).toBeLessThanOrEqual(58);
  });

  it("is reusable after flush, with the first-clause rule armed again", () => {
    const chunker = new SentenceChunker();
    chunker.push("One two three, four.");
    chunker.flush();
    expect([...chunker.push("Five six seven, eight. "), ...chunker.flush()]).toEqual(["Five six seven,", "eight."]);
  });
});

describe("chunkStage", () => {
  async function* tokens(list: string[]): AsyncGenerator<string> {
    for (const t of list) yield t;
  }

  it("passes every token on as a text frame before the speech it completes", async () => {
    const frames: ReplyFrame[] = [];
    for await (const frame of chunkStage(tokens(["Hi", " there.", " How", "", " are you?"]), { firstClause: false })) frames.push(frame);
    expect(frames).toEqual([
      { type: "text", text: "Hi" },
      { type: "text", text: " there." },
      { type: "text", text: " How" },
      { type: "speech", text: "Hi there." },
      { type: "text", text: " are you?" },
      { type: "speech", text: "How are you?" },
    ]);
  });

  it("does not flush when its input fails", async () => {
    async function* failing(): AsyncGenerator<string> {
      yield "Half a sentence";
      throw new Error("boom");
    }
    const frames: ReplyFrame[] = [];
    await expect(
      (async () => {
        for await (const frame of chunkStage(failing())) frames.push(frame);
      })(),
    ).rejects.toThrow("boom");
    expect(frames).toEqual([{ type: "text", text: "Half a sentence" }]);
  });
});

/**
 * The words of the marks are the sentence as written (PROTOCOL.md section 6: "a word is written as in the turn's
 * text"): each whitespace-separated token of the text the client received, markup and punctuation attached,
 * timed by how its speakable form is said. Plain functions: the written-to-spoken alignment, its timing on
 * flite's segments and in the estimate, and slicing into messages.
 */
import { describe, expect, it } from "bun:test";
import { speakableText } from "../../../src/engine/speech/speakable.ts";
import { estimatedMarks } from "../../../src/engine/tts/marks/estimate.ts";
import { EstimatedPcmMarks } from "../../../src/engine/tts/marks/estimated-pcm.ts";
import { fliteMarks, parseSegments } from "../../../src/engine/tts/marks/flite-marks.ts";
import { type SentenceMarks, sliceMarks } from "../../../src/engine/tts/marks/timeline.ts";
import { placeWritten, spokenLetters, spokenWords, writtenWords } from "../../../src/engine/tts/marks/words.ts";
import { expectWellFormed } from "./helpers.ts";

/** What a client splits the `text` events into. */
const tokens = (text: string) => text.split(/\s+/).filter((token) => token !== "");
const spokenOf = (text: string) => writtenWords(text).map((word) => word.spoken.map((w) => w.spoken));

describe("written words and the spoken words they are read as", () => {
  it.each([
    ["markdown emphasis", "I *love* __cats__", [["i"], ["love"], ["cats"]]],
    ["markup alone", "Wow ** so ` cool", [["wow"], [], ["so"], [], ["cool"]]],
    ["an emoji", "Hi 🦉 owl 🎉!", [["hi"], [], ["owl"], []]],
    ["a symbol between letters", "a<b and x|y", [["a", "b"], ["and"], ["x", "y"]]],
    ["a number with a decimal point", "It is 3.5 or 2.54.", [["it"], ["is"], ["threepointfive"], ["or"], ["twopointfivefour"]]],
    ["numbers flite reads whole", "1,000 owls cost $5.50, Dr. Who", [["onethousand"], ["owls"], ["cost"], ["fivedollarsfiftycents"], ["doctor"], ["who"]]],
    ["several spaces and line breaks", "  Hello,   little\n\towl  ", [["hello"], ["little"], ["owl"]]],
    ["leading and trailing punctuation", "“Hello,” she said… **Wow!** (yes)", [["hello"], ["she"], ["said"], ["wow"], ["yes"]]],
    ["a lone dash and a curly apostrophe", "Hi — it’s me", [["hi"], [], ["its"], ["me"]]],
  ])("keeps every token of %s as written, each once", (_, text, spoken) => {
    expect(writtenWords(text).map((word) => word.text)).toEqual(tokens(text));
    expect(spokenOf(text)).toEqual(spoken);
  });

  it("reads, in order, exactly the words of the text the voice is handed", () => {
    for (const text of ["I *love* cats 🐱 and a<b, it's 3.5 dollars.", "**Wow!** Dr. Owl has 1,000 stars.", "x*y*z `code` [link](url) ~~no~~"]) {
      const handed = speakableText(text)!
        .split(" ")
        .map(spokenLetters)
        .filter((letters) => letters !== "");
      expect(spokenWords(writtenWords(text)).map((word) => word.spoken)).toEqual(handed);
    }
  });

  it("spans all the spoken words of a written word, and gives words read as nothing the span of the word before", () => {
    const words = writtenWords("🎉 a<b 🦉 c ** d");
    const times = [
      { start: 0.1, end: 0.2 },
      { start: 0.3, end: 0.4 },
      { start: 0.5, end: 0.6 },
      { start: 0.7, end: 0.8 },
    ];
    expect(placeWritten(words, times, { start: 0, end: 1 })).toEqual([
      // Before any spoken word: the first spoken word's span.
      { text: "🎉", start: 0.1, end: 0.4 },
      { text: "a<b", start: 0.1, end: 0.4 },
      { text: "🦉", start: 0.1, end: 0.4 },
      { text: "c", start: 0.5, end: 0.6 },
      { text: "**", start: 0.5, end: 0.6 },
      { text: "d", start: 0.7, end: 0.8 },
    ]);
    expect(placeWritten(writtenWords("🎉 ** —"), [], { start: 0.2, end: 0.9 }).map((w) => [w.start, w.end])).toEqual([
      [0.2, 0.9],
      [0.2, 0.9],
      [0.2, 0.9],
    ]);
  });
});

// Printed by `flite -psdur` (slt voice) for the speakable form of the sentence ("I love cats 🐱 and a b, it's 3.5 dollars.").
const SENTENCE = "I *love* cats 🐱 and a<b, it's 3.5 dollars.";
const SEGMENTS = parseSegments(
  "pau:0.230 ay:0.358 l:0.503 ah:0.595 v:0.641 k:0.745 ae:0.859 t:0.921 s:1.025 ae:1.101 n:1.148 d:1.174 ax:1.206 b:1.285 iy:1.539 " +
    "pau:1.771 ih:1.852 t:1.915 s:1.981 th:2.114 r:2.154 iy:2.208 p:2.314 oy:2.628 n:2.679 t:2.722 f:2.850 ay:3.018 v:3.077 d:3.110 " +
    "aa:3.278 l:3.387 er:3.570 z:3.774 pau:3.916",
);

/** Every rule of one message, and the words of all messages of a sentence cut at `cuts`. */
function wordsOverCuts(sentence: SentenceMarks, seconds: number, cuts: number[]): string[] {
  const words: string[] = [];
  const ends = [...cuts, seconds];
  [0, ...cuts].forEach((from, k) => {
    const marks = sliceMarks(sentence, from, ends[k], k === cuts.length);
    expectWellFormed(marks, Math.round((ends[k] - from) * 1e6) / 1e6);
    words.push(...marks.subtitles.map((w) => w.text));
  });
  return words;
}

describe("written words timed by flite's segments", () => {
  it("captions the sentence as written, each word over the phones of what it is read as", () => {
    const marks = fliteMarks(SENTENCE, SEGMENTS, 3.916);
    expect(marks.words.map((w) => w.text)).toEqual(tokens(SENTENCE));
    const at = (text: string) => marks.words.find((w) => w.text === text)!;
    // "*love*" is "l ah v"; "a<b," is "ax" and "b iy"; "3.5" is "th r iy p oy n t f ay v".
    expect(at("*love*")).toEqual({ text: "*love*", start: 0.358, end: 0.641 });
    expect(at("a<b,")).toEqual({ text: "a<b,", start: 1.174, end: 1.539 });
    expect(at("3.5")).toEqual({ text: "3.5", start: 1.981, end: 3.077 });
    // The emoji takes no time of its own: it shares "cats".
    expect(at("🐱")).toEqual({ ...at("cats"), text: "🐱" });
  });

  it("puts each written word once in the messages of a sliced sentence, visemes untouched", () => {
    const marks = fliteMarks(SENTENCE, SEGMENTS, 3.916);
    for (const cuts of [[], [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2, 2.4, 2.6, 2.8, 3.0, 3.2, 3.4, 3.6, 3.8], [0.859, 1.174, 3.0]]) {
      expect(wordsOverCuts(marks, 3.916, cuts)).toEqual(tokens(SENTENCE));
    }
    const plain = fliteMarks(speakableText(SENTENCE)!, SEGMENTS, 3.916);
    expect(marks.visemes).toEqual(plain.visemes);
  });

  it("falls back to spreading the written words over the speech when the phones cannot be aligned", () => {
    const marks = fliteMarks("**Hi** a<b 🦉 there friend!", parseSegments("pau:0.2 hh:0.3 ay:0.5 pau:0.7"), 0.7);
    expect(marks.words.map((w) => w.text)).toEqual(["**Hi**", "a<b", "🦉", "there", "friend!"]);
    expect(marks.words[0].start).toBeCloseTo(0.2, 9);
    expect(marks.words.at(-1)!.end).toBeCloseTo(0.5, 9);
  });
});

describe("written words in estimated marks", () => {
  it("captions the sentence as written, spreading its spoken words over the audio", () => {
    const marks = estimatedMarks(SENTENCE, 4);
    expect(marks.words.map((w) => w.text)).toEqual(tokens(SENTENCE));
    expect(marks.words[0].start).toBe(0);
    expect(marks.words.at(-1)!.end).toBeCloseTo(4, 9);
    const at = (text: string) => marks.words.find((w) => w.text === text)!;
    expect(at("🐱")).toEqual({ ...at("cats"), text: "🐱" });
    // Markup costs no time, and "a<b," spans the two words it is read as: timed as the sentence without markup.
    const plain = estimatedMarks("I love cats and a b, it's 3.5 dollars.", 4).words;
    const spans = (words: { start: number; end: number }[]) => words.map((w) => [w.start, w.end]);
    expect(spans(marks.words.filter((w) => w.text !== "🐱"))).toEqual(
      spans([...plain.slice(0, 4), { start: plain[4].start, end: plain[5].end }, ...plain.slice(6)]),
    );
    expectWellFormed(sliceMarks(marks, 0, 4, true), 4);
  });

  it.each([
    ["shorter", 3],
    ["longer", 20],
  ])("places every written word once over streamed PCM when the audio is %s than the usual pace", (_, chunks) => {
    const marks = new EstimatedPcmMarks(SENTENCE, 1);
    const chunk = () => ({ data: new Uint8Array(9600), mimeType: "audio/pcm", sampleRate: 24000 });
    const out = [...Array.from({ length: chunks }, () => marks.push(chunk())).flat(), ...marks.end()];
    for (const c of out) expectWellFormed(c.marks!, 0.2);
    expect(out.flatMap((c) => c.marks!.subtitles.map((w) => w.text))).toEqual(tokens(SENTENCE));
  });
});

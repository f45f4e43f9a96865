/**
 * Speech marks as plain functions: phones to visemes, words found again among flite's phones, a sentence's
 * marks cut into messages, estimated marks, and the MP3 encoder's delay measured with a real decoder.
 */
import { describe, expect, it } from "bun:test";
import { Mp3Encoder } from "../../../src/engine/tts/audio/mp3-encoder.ts";
import { alignWords } from "../../../src/engine/tts/marks/align.ts";
import { audioSeconds, MP3_DELAY_SAMPLES } from "../../../src/engine/tts/marks/chunk-marks.ts";
import { estimatedMarks } from "../../../src/engine/tts/marks/estimate.ts";
import { EstimatedPcmMarks } from "../../../src/engine/tts/marks/estimated-pcm.ts";
import { fliteMarks, parseSegments } from "../../../src/engine/tts/marks/flite-marks.ts";
import { Loudness } from "../../../src/engine/tts/marks/loudness.ts";
import { type SentenceMarks, sliceMarks } from "../../../src/engine/tts/marks/timeline.ts";
import { lettersToVisemes, PHONE_VISEMES, visemeOfPhone } from "../../../src/engine/tts/marks/visemes.ts";
import { sentenceWords, spokenLetters } from "../../../src/engine/tts/marks/words.ts";
import { VISEMES } from "../../../src/engine/vocabulary.ts";
import { decodeMp3, expectWellFormed } from "./helpers.ts";

/** The CMU phone set flite's US English voices speak (cmu_us_*), plus its pause. */
const CMU_PHONES = "aa ae ah ao aw ax axr ay b ch d dh eh el em en er ey f g hh ih iy jh k l m n ng ow oy p r s sh t th uh uw v w y z zh pau".split(" ");

describe("phones to Oculus visemes", () => {
  it("maps every phone of flite's US English voices to one of the 15 visemes", () => {
    for (const phone of CMU_PHONES) expect(VISEMES).toContain(visemeOfPhone(phone, "aa"));
    for (const viseme of Object.values(PHONE_VISEMES)) expect(VISEMES).toContain(viseme);
  });

  it.each([
    ["p", "PP"],
    ["b", "PP"],
    ["m", "PP"],
    ["f", "FF"],
    ["v", "FF"],
    ["th", "TH"],
    ["dh", "TH"],
    ["t", "DD"],
    ["d", "DD"],
    ["k", "kk"],
    ["g", "kk"],
    ["ch", "CH"],
    ["jh", "CH"],
    ["sh", "CH"],
    ["s", "SS"],
    ["z", "SS"],
    ["n", "nn"],
    ["l", "nn"],
    ["r", "RR"],
    ["aa", "aa"],
    ["eh", "E"],
    ["ih", "I"],
    ["ow", "O"],
    ["uh", "U"],
    ["pau", "sil"],
  ])("follows the Oculus reference for %s -> %s", (phone, viseme) => {
    expect(visemeOfPhone(phone)).toBe(viseme as (typeof VISEMES)[number]);
  });

  it("gives h the shape of the sound after it, and silence at the end", () => {
    expect(visemeOfPhone("hh", "ow")).toBe("O");
    expect(visemeOfPhone("hh")).toBe("sil");
  });

  it("guesses visemes from spelling for voices without timings", () => {
    expect(lettersToVisemes("cheese")).toEqual(["CH", "I", "SS"]);
    expect(lettersToVisemes("moon")).toEqual(["PP", "U", "nn"]);
    expect(lettersToVisemes("Think!")).toEqual(["TH", "I", "nn", "kk"]);
  });
});

describe("words among flite's phones", () => {
  it("keeps the text's own words, punctuation attached, and drops what is not spoken", () => {
    expect(sentenceWords("“Hi” — it’s 5 o'clock! 🦉").map((w) => w.text)).toEqual(["“Hi”", "it’s", "5", "o'clock!"]);
    expect(spokenLetters("25!")).toBe("twentyfive");
    expect(spokenLetters("Dr.")).toBe("doctor");
  });

  // Phones as flite -psdur printed them for these sentences (slt voice).
  it.each([
    [
      "Hello there, my friend! It's 25 dollars, Dr. Smith.",
      "pau hh ax l ow dh eh r pau m ay f r eh n d pau ih t s t w eh n t iy f ay v d aa l er z pau d aa k t er s m ih th pau",
      ["hh ax l ow", "dh eh r", "m ay", "f r eh n d", "ih t s", "t w eh n t iy f ay v", "d aa l er z", "d aa k t er", "s m ih th"],
    ],
    [
      "She loved to watch the stars twinkle through the night sky.",
      "pau sh iy l ah v d t ax w aa ch dh ax s t aa r z t w ih ng k ax l th r uw dh ax n ay t s k ay pau",
      ["sh iy", "l ah v d", "t ax", "w aa ch", "dh ax", "s t aa r z", "t w ih ng k ax l", "th r uw", "dh ax", "n ay t", "s k ay"],
    ],
    [
      "I bought 1999 apples.",
      "pau ay b aa t n ay n t iy n n ay n t iy n ay n ae p ax l z pau",
      ["ay", "b aa t", "n ay n t iy n n ay n t iy n ay n", "ae p ax l z"],
    ],
  ])("finds the phones of each word of %p", (text, phoneText, expected) => {
    const phones = phoneText.split(" ");
    const spans = alignWords(
      sentenceWords(text).map((w) => w.spoken),
      phones,
    );
    expect(spans?.map(([a, b]) => phones.slice(a, b + 1).join(" "))).toEqual(expected);
  });

  it("gives every word its own run of phones, in order, covering every phone but the pauses, whatever the input", () => {
    // A fixed-seed generator: random words against random phones (a mismatch the alignment must still survive).
    let seed = 27;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    for (let run = 0; run < 300; run++) {
      const words = Array.from({ length: 1 + Math.floor(random() * 8) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 9) }, () => pick([..."abcdefghijklmnopqrstuvwxyz"])).join(""),
      );
      const phones = Array.from({ length: Math.floor(random() * 40) }, () => pick(CMU_PHONES));
      const spans = alignWords(words, phones);
      const spoken = phones.flatMap((phone, k) => (phone === "pau" ? [] : [k]));
      if (spoken.length < words.length) {
        expect(spans).toBeNull();
        continue;
      }
      expect(spans).not.toBeNull();
      const covered = spans!.flatMap(([first, last], w) => {
        expect(first).toBeLessThanOrEqual(last);
        if (w > 0) expect(first).toBeGreaterThan(spans![w - 1][1]);
        return phones.slice(first, last + 1).flatMap((phone, k) => (phone === "pau" ? [] : [first + k]));
      });
      expect(covered).toEqual(spoken);
    }
  });

  it("gives up (null) when there are fewer phones than words", () => {
    expect(alignWords(["a", "b", "c"], ["pau", "ax", "pau"])).toBeNull();
  });

  it("times words and visemes from flite's segments", () => {
    const marks = fliteMarks("Hello there.", parseSegments("pau:0.164 hh:0.255 ax:0.304 l:0.412 ow:0.523 dh:0.572 eh:0.664 r:0.817 pau:0.925\n"), 0.925);
    expect(marks.words).toEqual([
      { text: "Hello", start: 0.164, end: 0.523 },
      { text: "there.", start: 0.523, end: 0.817 },
    ]);
    expect(marks.visemes.map((v) => v.viseme).join(" ")).toBe("sil aa aa nn O TH E RR sil");
  });
});

describe("a sentence's marks cut into messages", () => {
  const sentence: SentenceMarks = {
    source: "engine",
    words: [
      { text: "Hello", start: 0.1, end: 0.5 },
      { text: "owl.", start: 0.5, end: 0.9 },
    ],
    visemes: [
      { viseme: "sil", start: 0, end: 0.1 },
      { viseme: "aa", start: 0.1, end: 0.2 },
      { viseme: "aa", start: 0.2, end: 0.3 },
      { viseme: "nn", start: 0.3, end: 0.3 },
      { viseme: "O", start: 0.3, end: 0.5 },
      { viseme: "U", start: 0.5, end: 0.9 },
    ],
  };

  it("tiles one whole message with merged neighbours and no zero length, padding with sil", () => {
    const marks = sliceMarks(sentence, 0, 1.2, true);
    expectWellFormed(marks, 1.2);
    expect(marks.visemes.map((v) => v.viseme)).toEqual(["sil", "aa", "O", "U", "sil"]);
    expect(marks.subtitles).toEqual([
      { text: "Hello", start_time_sec: 0.1, duration_sec: 0.4 },
      { text: "owl.", start_time_sec: 0.5, duration_sec: 0.4 },
    ]);
  });

  it("puts each word once, in the slice where it starts, and tiles every slice", () => {
    const cuts = [0, 0.2, 0.4, 0.6, 0.8, 0.95];
    const slices = cuts.slice(0, -1).map((from, k) => sliceMarks(sentence, from, cuts[k + 1], k === cuts.length - 2));
    slices.forEach((marks, k) => {
      expectWellFormed(marks, cuts[k + 1] - cuts[k]);
    });
    expect(slices.map((marks) => marks.subtitles.map((w) => w.text))).toEqual([["Hello"], [], ["owl."], [], []]);
    // A word that starts in a slice is timed from that slice's start and may run past it.
    expect(slices[2].subtitles[0]).toEqual({ text: "owl.", start_time_sec: 0.1, duration_sec: 0.4 });
  });
});

describe("marks of random segments cut at random places", () => {
  it("keep every rule in every message: tiled, no zero length, no repeated neighbour, each word once", () => {
    let seed = 6;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 200; run++) {
      let end = 0;
      const segments = Array.from({ length: 2 + Math.floor(random() * 30) }, () => {
        // Some segments last no time at all, as flite's sometimes do.
        end += random() < 0.1 ? 0 : random() * 0.2;
        return { phone: CMU_PHONES[Math.floor(random() * CMU_PHONES.length)], end };
      });
      const text = "Once upon a time, 3 owls sang!";
      const seconds = end + random() * 0.3;
      const sentence = fliteMarks(text, segments, seconds);
      const cuts = [0];
      while (cuts.at(-1)! < seconds) cuts.push(Math.min(seconds, cuts.at(-1)! + 0.01 + random() * 0.4));
      const words: string[] = [];
      cuts.slice(0, -1).forEach((from, k) => {
        const marks = sliceMarks(sentence, from, cuts[k + 1], k === cuts.length - 2);
        expectWellFormed(marks, Math.round((cuts[k + 1] - from) * 1e6) / 1e6);
        words.push(...marks.subtitles.map((w) => w.text));
      });
      expect(words).toEqual(sentence.words.map((w) => w.text));
    }
  });
});

describe("estimated marks", () => {
  it("spreads the words over the audio by their length, in order, with visemes inside them", () => {
    const marks = estimatedMarks("Hi, little owl. Goodnight!", 2);
    expect(marks.source).toBe("estimated");
    expect(marks.words.map((w) => w.text)).toEqual(["Hi,", "little", "owl.", "Goodnight!"]);
    expect(marks.words[0].start).toBe(0);
    expect(marks.words.at(-1)!.end).toBeCloseTo(2, 9);
    const lengths = marks.words.map((w) => w.end - w.start);
    expect(lengths[3]).toBeGreaterThan(lengths[0]);
    expectWellFormed(sliceMarks(marks, 0, 2, true), 2);
  });
});

describe("where the speech is, for estimated marks", () => {
  it("finds the voice between the silences a speech service pads it with, and spreads the words over it only", () => {
    const rate = 24000;
    const samples = new Int16Array(Math.round(rate * 1.5));
    for (let i = Math.round(rate * 0.3); i < Math.round(rate * 1.3); i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate));
    const loudness = new Loudness(rate);
    // In uneven parts, as a body streams in.
    for (let at = 0; at < samples.length; at += 1777) loudness.push(samples.subarray(at, at + 1777));
    const speech = loudness.speech()!;
    expect(speech.start).toBeCloseTo(0.3, 2);
    expect(speech.end).toBeCloseTo(1.3, 2);
    const marks = estimatedMarks("Hello there, little owl!", 1.5, speech);
    expect(marks.words[0].start).toBeCloseTo(0.3, 2);
    expect(marks.words.at(-1)!.end).toBeCloseTo(1.3, 2);
    expect(new Loudness(rate).speech()).toBeNull();
  });
});

describe("estimated marks for PCM that streams in", () => {
  it.each([
    ["shorter", 2],
    ["longer", 12],
  ])("places every word once over chunks when the audio is %s than the usual pace", (_, chunks) => {
    const text = "Once upon a time, a little owl lived in a tall oak tree.";
    const marks = new EstimatedPcmMarks(text, 1);
    const chunk = () => ({ data: new Uint8Array(9600), mimeType: "audio/pcm", sampleRate: 24000 });
    const out = [...Array.from({ length: chunks }, () => marks.push(chunk())).flat(), ...marks.end()];
    expect(out.length).toBe(chunks);
    for (const c of out) expectWellFormed(c.marks!, 0.2);
    expect(out.flatMap((c) => c.marks!.subtitles.map((w) => w.text))).toEqual(text.split(" "));
  });
});

describe("audio length as a client decodes it", () => {
  it("measures the encoder's delay: a click lands MP3_DELAY_SAMPLES late, within a millisecond, and the length is whole frames", async () => {
    const encoder = await Mp3Encoder.create();
    for (const rate of [16000, 24000]) {
      const samples = new Int16Array(Math.round(rate * 1.37));
      const clickAt = rate / 2;
      for (let i = 0; i < 8; i++) samples[clickAt + i] = 20000;
      const data = encoder.encode(samples, rate, () => false)!;
      const decoded = await decodeMp3(data);
      let loudest = 0;
      for (let i = 1; i < decoded.samples.length; i++) if (Math.abs(decoded.samples[i]) > Math.abs(decoded.samples[loudest])) loudest = i;
      expect(Math.abs(loudest - 0.5 * 44100 - MP3_DELAY_SAMPLES)).toBeLessThan(44.1);
      expect(audioSeconds({ data, mimeType: "audio/mpeg", sampleRate: 44100 })).toBe(decoded.samples.length / 44100);
    }
    expect(audioSeconds({ data: new Uint8Array(6400), mimeType: "audio/pcm", sampleRate: 16000 })).toBe(0.2);
  });
});

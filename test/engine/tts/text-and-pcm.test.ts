import { describe, expect, it } from "bun:test";
import { PcmRechunker, pcmChunks } from "../../../src/engine/tts/audio/pcm-chunks.ts";
import { parseWav } from "../../../src/engine/tts/audio/wav.ts";
import { isSpeakable, normalizeForFlite } from "../../../src/engine/tts/flite/normalize-text.ts";
import { DEFAULT_FLITE_VOICE, findFliteVoice, fliteOptions } from "../../../src/engine/tts/flite/voices.ts";

describe("normalizeForFlite", () => {
  it.each([
    ["Don’t worry — it’s fine!", "Don't worry, it's fine!"],
    ["“Hoot!” said the owl…", '"Hoot!" said the owl...'],
    ["Café crème at 2.54 o’clock", "Cafe creme at 2.54 o'clock"],
    ["Let’s go 🦉🌳 now", "Let's go now"],
    ["Owls 猫头鹰 are great", "Owls are great"],
    ["  lots\n\tof   space  ", "lots of space"],
    ["Wait – what?", "Wait, what?"],
    ["", ""],
  ])("folds %j to %j", (input, expected) => {
    expect(normalizeForFlite(input)).toBe(expected);
  });

  it.each([
    ["Hi!", true],
    ["42", true],
    ["...", false],
    ["🦉", false],
    ["", false],
  ])("knows whether %j can be spoken", (text, speakable) => {
    expect(isSpeakable(normalizeForFlite(text))).toBe(speakable);
  });
});

describe("flite voice options", () => {
  it("maps speed to duration_stretch and pitch to the f0 targets", () => {
    const options = fliteOptions(DEFAULT_FLITE_VOICE, { speed: 1.1 / 1.1, pitch: 1.2 }).join(" ");
    expect(options).toContain("-voice slt");
    expect(options).toContain("duration_stretch=1.100");
    expect(options).toContain("int_f0_target_mean=270.000");
    expect(fliteOptions(DEFAULT_FLITE_VOICE, { speed: 0.5 }).join(" ")).toContain("duration_stretch=2.200");
  });

  it("clamps absurd values instead of passing them to flite", () => {
    const options = fliteOptions(DEFAULT_FLITE_VOICE, { speed: 100, pitch: Number.NaN }).join(" ");
    expect(options).toContain("duration_stretch=0.550");
    expect(options).toContain("int_f0_target_mean=225.000");
  });

  it("finds the default for a missing id and nothing for an unknown one", () => {
    expect(findFliteVoice(undefined)?.id).toBe("slt");
    expect(findFliteVoice("kal16")?.flite).toBe("kal16");
    expect(findFliteVoice("nova")).toBeNull();
  });
});

describe("PCM helpers", () => {
  it("cuts samples into 200 ms little-endian chunks", () => {
    const samples = Int16Array.from({ length: 16000 + 100 }, (_, i) => i - 8000);
    const chunks = pcmChunks(samples, 16000);
    expect(chunks.map((chunk) => chunk.length)).toEqual([6400, 6400, 6400, 6400, 6400, 200]);
    expect(new DataView(chunks[0].buffer).getInt16(0, true)).toBe(-8000);
  });

  it("re-cuts an odd-sized byte stream into even chunks and drops a dangling half sample", () => {
    const cutter = new PcmRechunker(10);
    const out = [...cutter.push(new Uint8Array(7)), ...cutter.push(new Uint8Array(7)), ...cutter.push(new Uint8Array(7)), ...cutter.end()];
    expect(out.map((chunk) => chunk.length)).toEqual([10, 10]);
  });

  it("parses a 16-bit mono WAV and refuses anything else", () => {
    const wav = new Uint8Array(44 + 4);
    const view = new DataView(wav.buffer);
    wav.set(new TextEncoder().encode("RIFF"), 0);
    wav.set(new TextEncoder().encode("WAVEfmt "), 8);
    view.setUint32(16, 16, true);
    view.setUint16(20, 1, true);
    view.setUint16(22, 1, true);
    view.setUint32(24, 16000, true);
    view.setUint16(34, 16, true);
    wav.set(new TextEncoder().encode("data"), 36);
    view.setUint32(40, 4, true);
    view.setInt16(44, -2, true);
    expect(parseWav(wav)).toEqual({ samples: Int16Array.from([-2, 0]), sampleRate: 16000 });
    view.setUint16(22, 2, true);
    expect(parseWav(wav)).toBeNull();
    expect(parseWav(new Uint8Array(10))).toBeNull();
  });
});

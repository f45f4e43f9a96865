import { describe, expect, it } from "bun:test";
import { encodeMp3 } from "../../../src/engine/tts/audio/mp3-encoder.ts";
import { Mp3Chunker } from "../../../src/engine/tts/audio/mp3-chunker.ts";
import { id3Length, parseFrameHeader, splitFrames } from "../../../src/engine/tts/audio/mp3-frames.ts";
import { framesOf } from "./helpers.ts";

/** One second of a 440 Hz tone at 32 kHz, encoded by the real encoder: real frames to cut. */
function toneMp3(): Uint8Array {
  const samples = new Int16Array(32000);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 32000));
  const parts = [...encodeMp3(samples, () => false)];
  return Uint8Array.from(parts.flatMap((part) => [...part]));
}

function id3Tag(bodyBytes: number): Uint8Array {
  const tag = new Uint8Array(10 + bodyBytes);
  tag.set([0x49, 0x44, 0x33, 4, 0, 0]);
  tag.set([(bodyBytes >> 21) & 0x7f, (bodyBytes >> 14) & 0x7f, (bodyBytes >> 7) & 0x7f, bodyBytes & 0x7f], 6);
  tag.fill(0xff, 10); // a body full of 0xff bytes would look like frame syncs if it were not skipped
  return tag;
}

/** Feeds `bytes` to a chunker in pieces of `piece` bytes and returns every chunk it produced. */
function cut(bytes: Uint8Array, piece: number): Uint8Array[] {
  const chunker = new Mp3Chunker();
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += piece) out.push(...chunker.push(bytes.subarray(i, i + piece)));
  out.push(...chunker.end());
  return out;
}

describe("MP3 frame parsing", () => {
  it.each([
    ["MPEG-1 Layer III 32 kHz 48 kbps mono", [0xff, 0xfb, 0x38, 0xc0], { version: 1, layer: 3, sampleRate: 32000, bitrateKbps: 48, channels: 1, length: 216, samples: 1152 }],
    ["MPEG-1 Layer III 44.1 kHz 128 kbps stereo, padded", [0xff, 0xfb, 0x92, 0x00], { version: 1, layer: 3, sampleRate: 44100, bitrateKbps: 128, channels: 2, length: 418, samples: 1152 }],
    ["MPEG-2 Layer III 24 kHz 160 kbps mono", [0xff, 0xf3, 0xe4, 0xc0], { version: 2, layer: 3, sampleRate: 24000, bitrateKbps: 160, channels: 1, length: 480, samples: 576 }],
  ] as const)("reads %s", (_name, bytes, expected) => {
    expect(parseFrameHeader(Uint8Array.from(bytes), 0)).toEqual(expected);
  });

  it.each([
    ["no sync", [0x00, 0xfb, 0x38, 0xc0]],
    ["reserved version", [0xff, 0xeb, 0x38, 0xc0]],
    ["free-format bitrate", [0xff, 0xfb, 0x08, 0xc0]],
    ["bad bitrate", [0xff, 0xfb, 0xf8, 0xc0]],
    ["reserved sample rate", [0xff, 0xfb, 0x3c, 0xc0]],
    ["too short", [0xff, 0xfb]],
  ])("refuses %s", (_name, bytes) => {
    expect(parseFrameHeader(Uint8Array.from(bytes), 0)).toBeNull();
  });

  it("measures ID3v2 tags, and asks for more bytes when the header is cut", () => {
    expect(id3Length(id3Tag(300))).toBe(310);
    expect(id3Length(id3Tag(300).subarray(0, 6))).toBeNull();
    expect(id3Length(Uint8Array.from([0xff, 0xfb, 0x38, 0xc0]))).toBe(0);
  });
});

describe("Mp3Chunker", () => {
  const mp3 = toneMp3();
  const frameCount = splitFrames(mp3).length;

  it.each([1, 7, 216, 500, 4096])("cuts a stream fed in %i-byte pieces into whole frames only", (piece) => {
    const chunks = cut(mp3, piece);
    const frames = chunks.map(framesOf);
    expect(frames.flat().length).toBe(frameCount);
    // Every chunk but the last holds about 200 ms: six 36 ms frames.
    for (const chunkFrames of frames.slice(0, -1)) expect(chunkFrames.length).toBe(6);
    expect(Buffer.concat(chunks).equals(Buffer.from(mp3))).toBe(true);
  });

  it("drops a leading ID3v2 tag, even one whose body looks like frame syncs", () => {
    const chunks = cut(Buffer.concat([id3Tag(1000), mp3]), 333);
    expect(String.fromCharCode(...chunks[0].subarray(0, 3))).not.toBe("ID3");
    expect(Buffer.concat(chunks).equals(Buffer.from(mp3))).toBe(true);
  });

  it("drops junk between frames and a trailing ID3v1 tag", () => {
    const frames = splitFrames(mp3);
    const junk = Uint8Array.from([0x00, 0x12, 0xff, 0x00, 0x34]);
    const tag = Buffer.concat([Buffer.from("TAG"), Buffer.alloc(125, 0x20)]);
    const mangled = Buffer.concat([mp3.subarray(0, frames[3].offset), junk, mp3.subarray(frames[3].offset), tag]);
    const chunks = cut(mangled, 100);
    expect(chunks.flatMap(framesOf).length).toBe(frameCount);
    expect(Buffer.concat(chunks).equals(Buffer.from(mp3))).toBe(true);
  });

  it("reports the stream's format from its first frame", () => {
    const chunker = new Mp3Chunker();
    chunker.push(mp3);
    expect(chunker.first?.sampleRate).toBe(32000);
  });
});

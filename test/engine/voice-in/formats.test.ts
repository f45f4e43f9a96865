/**
 * Every format a client sends, through the session buffer exactly as `add_audio` chunks arrive: the speech
 * that comes out at 16 kHz must be the speech that went in (duration, loudness envelope), the VAD must hear
 * it, and the recogniser's WAV must be 16 kHz mono 16-bit.
 */
import { afterEach, describe, expect, it } from "bun:test";
import { type AudioChunkConfig, VoiceBuffer } from "../../../src/engine/voice-in/index.ts";
import { clearEndOfStream, splitOggPages, unityChunks, withSerial } from "./helpers/ogg.ts";
import { chunks, envelopeMatch, fixture, LEAD_S, mp3Bytes, pcm16Bytes, readWav16k, resampled, speech, wavBytes } from "./helpers/speech.ts";

const settings = { maxSeconds: 60, maxBytes: 8 * 1024 * 1024, silenceMs: 700, vadMode: 3 };
const open: VoiceBuffer[] = [];
afterEach(() => {
  for (const b of open.splice(0)) b.close();
});
async function buffer(overrides: Partial<typeof settings> = {}): Promise<VoiceBuffer> {
  const b = await VoiceBuffer.create({ ...settings, ...overrides });
  open.push(b);
  return b;
}

type Case = [
  name: string,
  make: (speech16k: Int16Array) => Uint8Array[] | Promise<Uint8Array[]>,
  config: AudioChunkConfig | undefined,
  format: string,
  lossless: boolean,
];

const cases: Case[] = [
  ["raw PCM at 16 kHz in 100 ms chunks", (s) => chunks(pcm16Bytes(s), 3200), { mime_type: "audio/pcm", sampling_rate: 16000 }, "pcm", true],
  [
    "raw PCM at 48 kHz in odd-sized chunks",
    (s) => chunks(pcm16Bytes(resampled(s, 48000)), 4801),
    { mime_type: "audio/pcm", sampling_rate: 48000 },
    "pcm",
    false,
  ],
  ["raw PCM with no sampling_rate (taken as 16 kHz)", (s) => chunks(pcm16Bytes(s), 6400), { mime_type: "audio/pcm" }, "pcm", true],
  ["WAV 16-bit 16 kHz mono in one message", (s) => [wavBytes(resampled(s, 16000), 16000, 1, "int16")], { mime_type: "audio/wav" }, "wav", true],
  [
    "WAV 16-bit 44.1 kHz stereo cut mid-header and mid-frame",
    (s) => chunks(wavBytes(resampled(s, 44100), 44100, 2, "int16"), 3001),
    { mime_type: "audio/wav" },
    "wav",
    false,
  ],
  [
    "WAV float 22.05 kHz mislabelled audio/pcm",
    (s) => chunks(wavBytes(resampled(s, 22050), 22050, 1, "float32"), 8000),
    { mime_type: "audio/pcm", sampling_rate: 16000 },
    "wav",
    false,
  ],
  ["WAV 24-bit 48 kHz with no config", (s) => chunks(wavBytes(resampled(s, 48000), 48000, 1, "int24"), 9000), undefined, "wav", false],
  ["MP3 from hoot's own encoder", async (s) => chunks(await mp3Bytes(s), 1000), { mime_type: "audio/mpeg" }, "mp3", false],
  ["MP3 44.1 kHz stereo with an ID3 tag (fixture)", () => chunks(fixture("puppy.mp3"), 2048), { mime_type: "audio/mpeg", sampling_rate: 44100 }, "mp3", false],
  [
    "Ogg/Vorbis as the Unity SDK sends it: whole pages, >= 512 bytes, no EOS",
    () => unityChunks(fixture("puppy.unity.ogg")),
    { mime_type: "audio/ogg", sampling_rate: 16000 },
    "ogg/vorbis",
    false,
  ],
  ["Ogg/Opus with pages split across chunks", () => chunks(fixture("puppy.opus.ogg"), 700), { mime_type: "audio/ogg" }, "ogg/opus", false],
  [
    "WebM/Opus in chunks labelled audio/mpeg at 48000 Hz (the browser SDK)",
    () => chunks(fixture("puppy.webm"), 600),
    { mime_type: "audio/mpeg", sampling_rate: 48000 },
    "webm/opus",
    false,
  ],
];

describe("voice input formats", () => {
  it.each(cases)("decodes %s to the same speech at 16 kHz", async (_name, make, config, format, lossless) => {
    const original = await speech();
    const voice = await buffer();
    let last = "";
    for (const chunk of await make(original)) last = (await voice.add(chunk, config)).format;
    expect(last).toBe(format);
    const wav = await voice.wav();
    const heard = readWav16k(wav!);
    // Same length within 80 ms (codec priming and padding), and the same loudness contour.
    expect(Math.abs(heard.length - original.length) / 16).toBeLessThan(80);
    expect(envelopeMatch(original, heard)).toBeGreaterThan(0.9);
    if (lossless) expect(heard).toEqual(original);
    const turn = voice.turn();
    expect(turn.heardSpeech).toBe(true);
    expect(turn.isUserStillSpeaking).toBe(false); // 1.2 s of silence closes the sentence
    expect(turn.voicedMs).toBeGreaterThan(1500);
  });

  it("keeps a second Unity utterance (a new Ogg stream, no clear in between) after the first", async () => {
    const voice = await buffer();
    const first = fixture("puppy.unity.ogg");
    const second = withSerial(fixture("dragon.unity.ogg"), 0x5eed);
    for (const chunk of [...unityChunks(first), ...unityChunks(second)]) await voice.add(chunk, { mime_type: "audio/ogg", sampling_rate: 16000 });
    const heard = readWav16k((await voice.wav())!);
    const puppy = await speech();
    const dragon = await speech("Can you tell me a story about a dragon?");
    expect(Math.abs(heard.length - (puppy.length + dragon.length)) / 16).toBeLessThan(120);
    expect(envelopeMatch(puppy, heard.subarray(0, puppy.length))).toBeGreaterThan(0.9);
    expect(envelopeMatch(dragon, heard.subarray(heard.length - dragon.length))).toBeGreaterThan(0.9);
  });

  it("decodes each page as it arrives, not one page late, on a stream that never ends", async () => {
    const voice = await buffer();
    // Ogg/Opus with ~1 s pages and its end-of-stream flag removed: nothing after the last page will ever come.
    for (const page of splitOggPages(clearEndOfStream(fixture("puppy.opus.ogg")))) await voice.add(page, { mime_type: "audio/ogg" });
    const original = await speech();
    expect(Math.abs(voice.durationMs - original.length / 16)).toBeLessThan(40);
  });

  it("starts the speech where it was spoken", async () => {
    const voice = await buffer();
    const original = await speech();
    const states: boolean[] = [];
    for (const chunk of chunks(pcm16Bytes(original), 160 * 2)) states.push((await voice.add(chunk, { mime_type: "audio/pcm" })).turn.heardSpeech);
    const firstHeardMs = states.indexOf(true) * 10;
    const onsetMs = loudnessOnsetMs(original);
    expect(onsetMs).toBeGreaterThanOrEqual(LEAD_S * 1000);
    expect(firstHeardMs).toBeGreaterThanOrEqual(onsetMs - 30);
    expect(firstHeardMs).toBeLessThan(onsetMs + 200);
  });
});

/** Where the signal first gets loud (a 10 ms window above 5% of the loudest), ms. */
function loudnessOnsetMs(samples: Int16Array): number {
  const rms = (i: number) => Math.sqrt(samples.subarray(i, i + 160).reduce((sum, v) => sum + v * v, 0) / 160);
  let max = 0;
  for (let i = 0; i + 160 <= samples.length; i += 160) max = Math.max(max, rms(i));
  for (let i = 0; i + 160 <= samples.length; i += 160) if (rms(i) > max * 0.05) return i / 16;
  return -1;
}

/**
 * `bun run bench:voice`: what voice input costs the server, from a fresh process.
 *
 * 1. VAD: microseconds per 10 ms frame (libfvad in WebAssembly), against the frame's own 10 ms.
 * 2. Decode + resample to 16 kHz, per second of audio, for each format a client sends, fed in the chunk
 *    sizes the clients use; the first chunk of a fresh stream (codec start-up) is shown apart. Raw 16 kHz PCM
 *    (nothing to decode) is the baseline of the same run.
 * 3. Memory: resident memory per idle session buffer (its VAD state), and per minute of buffered audio.
 * End of speech -> first reply text / audio needs the socket wiring; `replyLatencyHook` below says how it
 * is to be measured once `add_audio` and an empty-text `interact` reach the engine.
 *
 * Test audio is Flite speech (hoot's own TTS) and the committed fixtures of test/fixtures/voice/.
 * Figures depend on the machine and on what else runs: compare rows of one run, not runs.
 */
import { type AudioChunkConfig, VoiceBuffer } from "../src/engine/voice-in/index.ts";
import { Mp3Stream, OggStream, PcmStream, type StreamDecoder, WavStream, WebmStream } from "../src/engine/voice-in/decoders.ts";
import { Vad } from "../src/engine/voice-in/vad.ts";
import { unityChunks } from "../test/engine/voice-in/helpers/ogg.ts";
import { chunks, fixture, mp3Bytes, pcm16Bytes, resampled, speech, wavBytes } from "../test/engine/voice-in/helpers/speech.ts";

const settings = { maxSeconds: 600, maxBytes: 256 << 20, silenceMs: 700, vadMode: 3 };
const ROUNDS = 20;

function table(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  console.table(rows);
}

async function benchVad(samples: Int16Array): Promise<Record<string, string | number>[]> {
  const vad = await Vad.create(3);
  const frames = Math.floor(samples.length / 160);
  let voiced = 0;
  const start = performance.now();
  for (let r = 0; r < ROUNDS; r++) for (let f = 0; f < frames; f++) if (vad.isSpeech(samples.subarray(f * 160, f * 160 + 160))) voiced++;
  const perFrameUs = ((performance.now() - start) * 1000) / (ROUNDS * frames);
  vad.free();
  return [{ stage: "WebRTC VAD (fvad wasm), one 10 ms frame", "µs per frame": perFrameUs.toFixed(2), "share of real time": `${((perFrameUs / 10_000) * 100).toFixed(3)} %`, "voiced frames": `${Math.round((voiced / (ROUNDS * frames)) * 100)} %` }];
}

interface Format {
  name: string;
  chunks: Uint8Array[];
  config: AudioChunkConfig;
  make: () => StreamDecoder;
}

async function benchFormat(format: Format, audioSeconds: number): Promise<Record<string, string | number>> {
  // Decode only (the codec, page/EBML parsing and the resampler).
  let coldMs = 0;
  let decodeMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const decoder = format.make();
    const t0 = performance.now();
    await decoder.decode(format.chunks[0]);
    const t1 = performance.now();
    for (const chunk of format.chunks.slice(1)) await decoder.decode(chunk);
    const t2 = performance.now();
    decoder.free();
    coldMs += t1 - t0;
    decodeMs += t2 - t0;
  }
  // The whole add_audio path: sniffing, decoding, VAD, buffering.
  let addMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const voice = await VoiceBuffer.create(settings);
    const t0 = performance.now();
    for (const chunk of format.chunks) await voice.add(chunk, format.config);
    addMs += performance.now() - t0;
    voice.close();
  }
  const perSecond = decodeMs / ROUNDS / audioSeconds;
  const addPerSecond = addMs / ROUNDS / audioSeconds;
  return {
    format: format.name,
    chunks: format.chunks.length,
    "first chunk ms": (coldMs / ROUNDS).toFixed(2),
    "decode+resample ms / audio s": perSecond.toFixed(3),
    "add_audio path ms / audio s": addPerSecond.toFixed(3),
    "real-time streams per core": Math.floor(1000 / addPerSecond),
  };
}

function rssMb(): number {
  Bun.gc(true);
  return process.memoryUsage().rss / (1024 * 1024);
}

async function benchMemory(samples: Int16Array): Promise<Record<string, string | number>[]> {
  const before = rssMb();
  const idle: VoiceBuffer[] = [];
  for (let i = 0; i < 2000; i++) idle.push(await VoiceBuffer.create(settings));
  const idleKb = ((rssMb() - before) * 1024) / idle.length;
  for (const v of idle) v.close();
  const full = await VoiceBuffer.create(settings);
  const minute = pcm16Bytes(samples);
  const base = rssMb();
  for (let s = 0; s < 60; s += samples.length / 16000) await full.add(minute, { mime_type: "audio/pcm" });
  const perMinuteMb = ((rssMb() - base) * 60) / (full.durationMs / 1000);
  full.close();
  return [
    { what: "idle session buffer (VAD state)", memory: `${idleKb.toFixed(1)} KB` },
    { what: "one minute of buffered audio (16 kHz 16-bit = 1.92 MB of samples)", memory: `${perMinuteMb.toFixed(2)} MB RSS` },
  ];
}

/**
 * End of speech -> first reply text and first reply audio, once the socket is wired: open an authenticated,
 * configured socket (test/helpers/ws.ts), stream `puppy.unity.ogg` in Unity's chunks at real time with a fake
 * recogniser of fixed latency (HOOT_STT_BASE_URL pointing at a loopback server that sleeps N ms), send
 * `interact` with no `text` right after the last chunk, and time the first `text` and the first `audio` event
 * from that moment; compare with a text interact of the same words in the same run.
 */
export const replyLatencyHook = "not measured yet: needs add_audio and empty-text interact on the socket";

const original = await speech();
const audioSeconds = original.length / 16000;
const webm = fixture("puppy.webm");
const formats: Format[] = [
  { name: "raw PCM 16 kHz (baseline)", chunks: chunks(pcm16Bytes(original), 3200), config: { mime_type: "audio/pcm", sampling_rate: 16000 }, make: () => new PcmStream(16000) },
  { name: "raw PCM 48 kHz", chunks: chunks(pcm16Bytes(resampled(original, 48000)), 9600), config: { mime_type: "audio/pcm", sampling_rate: 48000 }, make: () => new PcmStream(48000) },
  { name: "WAV 44.1 kHz stereo", chunks: chunks(wavBytes(resampled(original, 44100), 44100, 2, "int16"), 17640), config: { mime_type: "audio/wav" }, make: () => new WavStream() },
  { name: "MP3 44.1 kHz mono (hoot's encoder)", chunks: chunks(await mp3Bytes(original), 600), config: { mime_type: "audio/mpeg" }, make: () => new Mp3Stream() },
  { name: "MP3 44.1 kHz stereo + ID3", chunks: chunks(fixture("puppy.mp3"), 1200), config: { mime_type: "audio/mpeg" }, make: () => new Mp3Stream() },
  { name: "Ogg/Vorbis 16 kHz (Unity chunks)", chunks: unityChunks(fixture("puppy.unity.ogg")), config: { mime_type: "audio/ogg", sampling_rate: 16000 }, make: () => new OggStream() },
  { name: "Ogg/Opus 48 kHz", chunks: chunks(fixture("puppy.opus.ogg"), 700), config: { mime_type: "audio/ogg" }, make: () => new OggStream() },
  { name: "WebM/Opus 48 kHz (browser chunks)", chunks: chunks(webm, Math.ceil(webm.length / (audioSeconds * 10))), config: { mime_type: "audio/mpeg", sampling_rate: 48000 }, make: () => new WebmStream() },
];

console.log(`voice input bench: ${audioSeconds.toFixed(2)} s of Flite speech per stream, ${ROUNDS} rounds, bun ${Bun.version}`);
table("1. voice activity detection", await benchVad(original));
const rows: Record<string, string | number>[] = [];
for (const format of formats) rows.push(await benchFormat(format, audioSeconds));
table("2. decode + resample to 16 kHz mono, per second of audio", rows);
table("3. memory", await benchMemory(original));
console.log(`\n4. end of speech -> first reply text / audio: ${replyLatencyHook} (see replyLatencyHook in bench/voice.ts)`);

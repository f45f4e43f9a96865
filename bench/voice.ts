/**
 * `bun run bench:voice`: what voice input costs the server, from a fresh process.
 *
 * 1. VAD: microseconds per 10 ms frame (libfvad in WebAssembly), against the frame's own 10 ms.
 * 2. Decode + resample to 16 kHz, per second of audio, for each format a client sends, fed in the chunk
 *    sizes the clients use; the first chunk of a fresh stream (codec start-up) is shown apart. Raw 16 kHz PCM
 *    (nothing to decode) is the baseline of the same run.
 * 3. Memory: resident memory per idle session buffer (its VAD state), and per minute of buffered audio.
 * 4. End of speech -> first reply text and first reply audio through a real `hoot serve` (a fresh process,
 *    local language model and speech at their defaults) with a fake OpenAI-compatible recogniser on loopback
 *    that answers after a fixed latency (BENCH_VOICE_STT_MS, 300 ms): `puppy.unity.ogg` is streamed in Unity's
 *    chunks at real time, and the clock starts when the `interact` with no text is sent right after the last
 *    chunk (Unity sends it when its own VAD hears the silence). A text `interact` of the same words in the
 *    same run, on the same socket, is the baseline; rounds alternate (BENCH_VOICE_ROUNDS, 7).
 *
 * Test audio is Flite speech (hoot's own TTS) and the committed fixtures of test/fixtures/voice/.
 * Figures depend on the machine and on what else runs: compare rows of one run, not runs.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Mp3Stream, OggStream, PcmStream, type StreamDecoder, WavStream, WebmStream } from "../src/engine/voice-in/decoders.ts";
import { type AudioChunkConfig, VoiceBuffer } from "../src/engine/voice-in/index.ts";
import { Vad } from "../src/engine/voice-in/vad.ts";
import { unityChunks } from "../test/engine/voice-in/helpers/ogg.ts";
import { chunks, fixture, mp3Bytes, pcm16Bytes, resampled, speech, wavBytes } from "../test/engine/voice-in/helpers/speech.ts";
import { startFakeOpenAi } from "../test/helpers/fake-openai.ts";
import { spawnServer } from "../test/helpers/process.ts";
import { openSession, type WsProbe } from "../test/helpers/ws.ts";
import { median } from "./wrk.ts";

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
  return [
    {
      stage: "WebRTC VAD (fvad wasm), one 10 ms frame",
      "µs per frame": perFrameUs.toFixed(2),
      "share of real time": `${((perFrameUs / 10_000) * 100).toFixed(3)} %`,
      "voiced frames": `${Math.round((voiced / (ROUNDS * frames)) * 100)} %`,
    },
  ];
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

const STT_MS = Number(process.env.BENCH_VOICE_STT_MS ?? 300);
const REPLY_ROUNDS = Math.max(1, Number(process.env.BENCH_VOICE_ROUNDS ?? 7));
const SENTENCE = "I want to play with my puppy";

/** Sends an interact (no text: the buffered voice) and times its first text and first audio from the send. */
async function timeReply(probe: WsProbe, text: string | undefined): Promise<{ text: number; audio: number }> {
  const uid = crypto.randomUUID();
  const sent = performance.now();
  const times = { text: 0, audio: 0 };
  const done = new Promise<void>((resolve, reject) => {
    const previous = probe.ws.onmessage;
    probe.ws.onmessage = (event) => {
      previous?.call(probe.ws, event);
      const m = JSON.parse(String(event.data)) as Record<string, unknown>;
      if (m.uid !== uid) return;
      if (m.event === "text" && !times.text) times.text = performance.now() - sent;
      if (m.event === "audio" && !times.audio) times.audio = performance.now() - sent;
      if (m.kind === "error") reject(new Error(`the turn failed: ${String(m.error)}`));
      if (m.kind === "close") {
        probe.ws.onmessage = previous;
        resolve();
      }
    };
  });
  probe.send({ type: "stream", kind: "interact", uid, context: {}, audio_output: true, ...(text === undefined ? {} : { text }) });
  await done;
  return times;
}

/** Unity's microphone: the chunks spread evenly over the audio's own duration. */
async function streamRealTime(probe: WsProbe, parts: Uint8Array[], seconds: number): Promise<void> {
  const start = performance.now();
  for (const [i, part] of parts.entries()) {
    const due = start + (i * seconds * 1000) / parts.length;
    if (due > performance.now()) await Bun.sleep(due - performance.now());
    probe.send({
      type: "request",
      kind: "add_audio",
      uid: crypto.randomUUID(),
      audio: Buffer.from(part).toString("base64"),
      config: { sampling_rate: 16000, mime_type: "audio/ogg" },
    });
  }
}

async function benchReplyLatency(audioSeconds: number): Promise<Record<string, string | number>[]> {
  const stt = startFakeOpenAi({ transcript: SENTENCE, sttLatencyMs: STT_MS });
  const dir = mkdtempSync(join(tmpdir(), "hoot-bench-voice-"));
  const server = await spawnServer(dir, { HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url, HOOT_LOG_LEVEL: "warn" });
  try {
    const creds = JSON.parse(readFileSync(join(dir, "data/dev-credentials.json"), "utf8")) as { developer_api_key: string; service_account_api_key: string };
    const post = async (path: string, body: unknown, token?: string) =>
      (await (
        await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, unknown>;
    const devToken = String((await post("/api/auth/login", { api_key: creds.developer_api_key })).access_token);
    const player = await post("/api/players", { external_id: "bench-voice" }, devToken);
    const token = String((await post("/api/auth/login", { api_key: creds.service_account_api_key, federated_id: player.federated_id })).access_token);
    const probe = await openSession(server.url, token, { prompt: "You are Ollie the owl, a kind friend." });
    const parts = unityChunks(fixture("puppy.unity.ogg"));
    // One untimed turn of each: the speech workers, the codecs and the VAD are warm, as in a running server.
    await streamRealTime(probe, parts, 0);
    await timeReply(probe, undefined);
    await timeReply(probe, SENTENCE);
    const voice: { text: number; audio: number }[] = [];
    const typed: { text: number; audio: number }[] = [];
    for (let r = 0; r < REPLY_ROUNDS; r++) {
      await streamRealTime(probe, parts, audioSeconds);
      voice.push(await timeReply(probe, undefined));
      typed.push(await timeReply(probe, SENTENCE));
    }
    probe.close();
    if (stt.transcriptions.some((q) => q.wavError)) throw new Error("the recogniser got something that is not 16 kHz mono WAV");
    const row = (what: string, runs: { text: number; audio: number }[]) => ({
      turn: what,
      rounds: runs.length,
      "first text p50 ms": median(runs.map((x) => x.text)).toFixed(0),
      "first text max ms": Math.max(...runs.map((x) => x.text)).toFixed(0),
      "first audio p50 ms": median(runs.map((x) => x.audio)).toFixed(0),
      "first audio max ms": Math.max(...runs.map((x) => x.audio)).toFixed(0),
    });
    const voiceRow = row(`voice: interact without text (recogniser ${STT_MS} ms)`, voice);
    const textRow = row("text: the same words typed (baseline)", typed);
    // Paired by round (the same moment's load), then the median: what voice adds beyond the recogniser itself.
    const added = (key: "text" | "audio") => median(voice.map((v, i) => v[key] - typed[i]![key] - STT_MS)).toFixed(0);
    return [
      voiceRow,
      textRow,
      {
        turn: "voice - text - recogniser, per round (hoot's own cost: WAV, upload, transcript)",
        rounds: voice.length,
        "first text p50 ms": added("text"),
        "first audio p50 ms": added("audio"),
      },
    ];
  } finally {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
    await stt.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const original = await speech();
const audioSeconds = original.length / 16000;
const webm = fixture("puppy.webm");
const formats: Format[] = [
  {
    name: "raw PCM 16 kHz (baseline)",
    chunks: chunks(pcm16Bytes(original), 3200),
    config: { mime_type: "audio/pcm", sampling_rate: 16000 },
    make: () => new PcmStream(16000),
  },
  {
    name: "raw PCM 48 kHz",
    chunks: chunks(pcm16Bytes(resampled(original, 48000)), 9600),
    config: { mime_type: "audio/pcm", sampling_rate: 48000 },
    make: () => new PcmStream(48000),
  },
  {
    name: "WAV 44.1 kHz stereo",
    chunks: chunks(wavBytes(resampled(original, 44100), 44100, 2, "int16"), 17640),
    config: { mime_type: "audio/wav" },
    make: () => new WavStream(),
  },
  {
    name: "MP3 44.1 kHz mono (hoot's encoder)",
    chunks: chunks(await mp3Bytes(original), 600),
    config: { mime_type: "audio/mpeg" },
    make: () => new Mp3Stream(),
  },
  { name: "MP3 44.1 kHz stereo + ID3", chunks: chunks(fixture("puppy.mp3"), 1200), config: { mime_type: "audio/mpeg" }, make: () => new Mp3Stream() },
  {
    name: "Ogg/Vorbis 16 kHz (Unity chunks)",
    chunks: unityChunks(fixture("puppy.unity.ogg")),
    config: { mime_type: "audio/ogg", sampling_rate: 16000 },
    make: () => new OggStream(),
  },
  { name: "Ogg/Opus 48 kHz", chunks: chunks(fixture("puppy.opus.ogg"), 700), config: { mime_type: "audio/ogg" }, make: () => new OggStream() },
  {
    name: "WebM/Opus 48 kHz (browser chunks)",
    chunks: chunks(webm, Math.ceil(webm.length / (audioSeconds * 10))),
    config: { mime_type: "audio/mpeg", sampling_rate: 48000 },
    make: () => new WebmStream(),
  },
];

console.log(`voice input bench: ${audioSeconds.toFixed(2)} s of Flite speech per stream, ${ROUNDS} rounds, bun ${Bun.version}`);
table("1. voice activity detection", await benchVad(original));
const rows: Record<string, string | number>[] = [];
for (const format of formats) rows.push(await benchFormat(format, audioSeconds));
table("2. decode + resample to 16 kHz mono, per second of audio", rows);
table("3. memory", await benchMemory(original));
const unitySeconds =
  (await (async () => {
    const voice = await VoiceBuffer.create(settings);
    for (const chunk of unityChunks(fixture("puppy.unity.ogg"))) await voice.add(chunk, { mime_type: "audio/ogg" });
    const ms = voice.durationMs;
    voice.close();
    return ms;
  })()) / 1000;
table(
  `4. end of speech -> first reply (hoot serve in its own process; ${unitySeconds.toFixed(2)} s of Unity Ogg/Vorbis streamed at real time)`,
  await benchReplyLatency(unitySeconds),
);

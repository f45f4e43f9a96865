/**
 * The offline speech engine alone (flite + LAME resampling to 44.1 kHz and MP3 encoding, in workers), without the
 * language model.
 * Run: `npx bun bench/speech-engine.ts [ttfc-iterations]`.
 *
 * 1. Real-time factor (synthesis time / audio duration) per typical sentence: flite alone on this thread,
 *    a fresh flite instance (one per sentence, before) and putting the last one back as new (now), the MP3 path alone on this thread (our resampler to 44.1 kHz +
 *    LAME, as hoot encodes), LAME resampling by itself (the path before: 16 kHz in, LAME's own resampler) as the
 *    baseline in the same run, the pure-JS lamejs for comparison when it is installed, then the whole path
 *    through one worker for mp3 and pcm16.
 * 1b. The cost of speech marks (subtitles and visemes): the same sentences through the same worker with and
 *    without marks, interleaved, in this run; and the marks' own work on this thread beside flite's.
 * 1c. Where a second of audio goes in CPU time on this thread, the path before beside now: a fresh flite instance
 *    against the reused one, flite, LAME resampling at 48 kbps CBR against our resampler + LAME VBR.
 * 2. Time to first chunk for a turn's first short clause on an idle pool: p50 / p99.
 * 3. The raw concurrent limit: workers / RTF real-time streams, next to the measured throughput when the
 *    pool is kept full (seconds of audio produced per wall-clock second).
 */

import { createEncoder } from "wasm-media-encoders";
import { loadMp3Module, MP3_SAMPLE_RATE, Mp3Encoder } from "../src/engine/tts/audio/mp3-encoder.ts";
import { splitFrames } from "../src/engine/tts/audio/mp3-frames.ts";
import { normalizeForFlite } from "../src/engine/tts/flite/normalize-text.ts";
import { prepareFlite, runFlite } from "../src/engine/tts/flite/run-flite.ts";
import { DEFAULT_FLITE_VOICE } from "../src/engine/tts/flite/voices.ts";
import { loadFliteModule } from "../src/engine/tts/flite/wasm.ts";
import { type AudioChunk, LocalSpeechProvider, usableCores } from "../src/engine/tts/index.ts";
import { chunkMarks } from "../src/engine/tts/marks/chunk-marks.ts";
import { fliteMarks } from "../src/engine/tts/marks/flite-marks.ts";
import type { AudioFormat } from "../src/engine/types.ts";

const SENTENCES = [
  "Hi there!",
  "Oh, what a great question!",
  "Owls can turn their heads almost all the way around.",
  "Once upon a time, a little owl named Hoot lived in a tall oak tree at the edge of the forest.",
  "Do you want to hear what happened next, or shall we count the stars together?",
  "That's right, three plus four makes seven, well done!",
  "The moon looks different every night because we see different parts of it lit by the sun.",
  "Let's take a deep breath, and then we can try again, one step at a time.",
];
const FIRST_CLAUSES = ["Hi there!", "Oh, hello!", "Wow, good question!", "Hmm, let me think.", "Yes!"];
const ttfcIterations = Number(process.argv[2] ?? 60);
const workers = Number(process.env.HOOT_TTS_WORKERS ?? usableCores());

function audioSeconds(chunks: AudioChunk[]): number {
  let seconds = 0;
  for (const chunk of chunks) {
    if (chunk.mimeType === "audio/mpeg") for (const { header } of splitFrames(chunk.data)) seconds += header.samples / header.sampleRate;
    else seconds += chunk.data.length / 2 / chunk.sampleRate;
  }
  return seconds;
}

async function speak(
  tts: LocalSpeechProvider,
  text: string,
  format: AudioFormat,
  marks = false,
): Promise<{ firstMs: number; totalMs: number; seconds: number }> {
  const started = performance.now();
  let firstMs = -1;
  const chunks: AudioChunk[] = [];
  for await (const chunk of tts.synthesize({ text, voice: {}, format, signal: new AbortController().signal, marks })) {
    if (firstMs < 0) firstMs = performance.now() - started;
    chunks.push(chunk);
  }
  return { firstMs, totalMs: performance.now() - started, seconds: audioSeconds(chunks) };
}

/** Milliseconds `fn` takes (best of three, after one warm-up run). */
function timed(fn: () => unknown): number {
  fn();
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * The pure-JS lamejs encoder at 44.1 kHz (what hoot used before), for comparison, if the package is installed
 * (`npm install --no-save @breezystack/lamejs`); it needs 44.1 kHz input and a bitrate it keeps at 44.1 kHz.
 */
async function lamejsEncoder(): Promise<((samples: Int16Array) => unknown) | null> {
  const name = "@breezystack/lamejs";
  const lib = (await import(name).catch(() => null)) as {
    Mp3Encoder: new (channels: number, rate: number, kbps: number) => { encodeBuffer(s: Int16Array): unknown; flush(): unknown };
  } | null;
  if (!lib) return null;
  return (samples) => {
    const resampled = new Int16Array(Math.floor((samples.length * 44100) / 16000));
    for (let i = 0; i < resampled.length; i++) resampled[i] = samples[Math.floor((i * 16000) / 44100)]!;
    const encoder = new lib.Mp3Encoder(1, 44100, 64);
    encoder.encodeBuffer(resampled);
    return encoder.flush();
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function table(rows: (string | number)[][]): void {
  const cells = rows.map((row) => row.map((cell) => (typeof cell === "number" ? cell.toFixed(3) : cell)));
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  for (const row of cells) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
  console.log();
}

// 1. Real-time factor per sentence.
const module = await loadFliteModule();
await runFlite(module, "Warming up.", DEFAULT_FLITE_VOICE, {});
const single = new LocalSpeechProvider({ workers: 1 });
const encoder = await Mp3Encoder.create();
const lamejs = await lamejsEncoder();
/** The MP3 path before: LAME given flite's 16 kHz and resampling it itself, 48 kbps CBR. */
const lameItself = await createEncoder("audio/mpeg", await loadMp3Module());
const lameResampling = (samples: Int16Array, rate: number) => {
  lameItself.configure({ channels: 1, sampleRate: rate, bitrate: 48, outputSampleRate: MP3_SAMPLE_RATE });
  const floats = Float32Array.from(samples, (v) => v / 32768);
  for (let at = 0; at < floats.length; at += 8192) lameItself.encode([floats.subarray(at, at + 8192)]);
  return lameItself.finalize();
};
await single.ready();
const rows: (string | number)[][] = [
  ["sentence", "audio s", "flite RTF", "fresh instance", "reused instance", "MP3 RTF", "before RTF", "lamejs RTF", "mp3 RTF", "pcm16 RTF"],
];
const totals = { audio: 0, flite: 0, instance: 0, reuse: 0, lame: 0, before: 0, lamejs: 0, mp3: 0, pcm: 0 };
for (const text of SENTENCES) {
  const started = performance.now();
  const pcm = await runFlite(module, normalizeForFlite(text), DEFAULT_FLITE_VOICE, {});
  const fliteMs = performance.now() - started;
  const seconds = pcm.samples.length / pcm.sampleRate;
  // A fresh instance for the next sentence (the path before), against the last one put back as new (now).
  let instanceMs = Infinity;
  let reuseMs = Infinity;
  for (let rep = 0; rep < 3; rep++) {
    let at = performance.now();
    const host = await prepareFlite(module);
    instanceMs = Math.min(instanceMs, performance.now() - at);
    await runFlite(module, normalizeForFlite(text), DEFAULT_FLITE_VOICE, {}, host);
    at = performance.now();
    host.reset();
    reuseMs = Math.min(reuseMs, performance.now() - at);
  }
  // Interleaved, so that both sides see the same machine.
  let lameMs = 0;
  let beforeMs = 0;
  for (let rep = 0; rep < 3; rep++) {
    lameMs += timed(() => encoder.encode(pcm.samples, pcm.sampleRate, () => false)) / 3;
    beforeMs += timed(() => lameResampling(pcm.samples, pcm.sampleRate)) / 3;
  }
  const lamejsMs = lamejs ? timed(() => lamejs(pcm.samples)) : Number.NaN;
  const mp3 = await speak(single, text, "mp3");
  const raw = await speak(single, text, "pcm16");
  totals.audio += seconds;
  totals.flite += fliteMs / 1000;
  totals.instance += instanceMs / 1000;
  totals.reuse += reuseMs / 1000;
  totals.lame += lameMs / 1000;
  totals.before += beforeMs / 1000;
  totals.lamejs += lamejsMs / 1000;
  totals.mp3 += mp3.totalMs / 1000;
  totals.pcm += raw.totalMs / 1000;
  const label = text.length > 44 ? `${text.slice(0, 41)}...` : text;
  rows.push([
    label,
    seconds,
    fliteMs / 1000 / seconds,
    instanceMs / 1000 / seconds,
    reuseMs / 1000 / seconds,
    lameMs / 1000 / seconds,
    beforeMs / 1000 / seconds,
    lamejsMs / 1000 / seconds,
    mp3.totalMs / 1000 / seconds,
    raw.totalMs / 1000 / seconds,
  ]);
}
rows.push([
  "all sentences",
  totals.audio,
  totals.flite / totals.audio,
  totals.instance / totals.audio,
  totals.reuse / totals.audio,
  totals.lame / totals.audio,
  totals.before / totals.audio,
  totals.lamejs / totals.audio,
  totals.mp3 / totals.audio,
  totals.pcm / totals.audio,
]);
console.log(`Real-time factor (lower is faster; one worker, one request at a time)\n`);
table(rows);

// 1b. The cost of marks, interleaved so that both sides see the same machine.
const marksReps = Number(process.env.MARKS_REPS ?? 6);
const costs: Record<"plain" | "marks", number[]> = { plain: [], marks: [] };
const sums = { plain: 0, marks: 0 };
for (let rep = 0; rep < marksReps; rep++) {
  for (const text of SENTENCES) {
    for (const side of rep % 2 ? (["marks", "plain"] as const) : (["plain", "marks"] as const)) {
      for (const format of ["mp3", "pcm16"] as const) {
        const { totalMs } = await speak(single, text, format, side === "marks");
        costs[side].push(totalMs);
        sums[side] += totalMs;
      }
    }
  }
}
const alone = { flite: 0, marks: 0 };
for (const text of SENTENCES) {
  const started = performance.now();
  const pcm = await runFlite(module, normalizeForFlite(text), DEFAULT_FLITE_VOICE, {}, undefined, true);
  alone.flite += performance.now() - started;
  const seconds = pcm.samples.length / pcm.sampleRate;
  alone.marks += timed(() => {
    const sentence = fliteMarks(text, pcm.segments ?? [], seconds);
    chunkMarks(sentence, { data: new Uint8Array(Math.round(seconds * 16000) * 2), mimeType: "audio/pcm", sampleRate: 16000 }, 0, true);
  });
}
console.log(`Cost of speech marks (one worker; ${SENTENCES.length} sentences × mp3 and pcm16 × ${marksReps} runs, with and without marks interleaved)\n`);
table([
  ["side", "total s", "p50 ms", "p99 ms"],
  ["without marks", sums.plain / 1000, percentile(costs.plain, 50), percentile(costs.plain, 99)],
  ["with marks", sums.marks / 1000, percentile(costs.marks, 50), percentile(costs.marks, 99)],
  [
    "marks / without",
    sums.marks / sums.plain,
    percentile(costs.marks, 50) / percentile(costs.plain, 50),
    percentile(costs.marks, 99) / percentile(costs.plain, 99),
  ],
]);
// The same sentence and format, with marks over without, run next to each other.
const paired = costs.marks.map((ms, i) => ms / costs.plain[i]);
console.log(
  `Paired (same sentence and format, next to each other) with / without: p50 ${percentile(paired, 50).toFixed(3)}, p99 ${percentile(paired, 99).toFixed(3)}`,
);
console.log(
  `Marks' own work on this thread (alignment, visemes, slicing): ${alone.marks.toFixed(2)} ms for ${alone.flite.toFixed(0)} ms of flite (${((100 * alone.marks) / alone.flite).toFixed(2)}%)\n`,
);
await single.close();

// 1c. Where a second of audio goes, in CPU time on this thread (other work on the machine barely moves it):
// the path before (a fresh flite instance per sentence; LAME resampling, 48 kbps CBR) beside now, interleaved.
{
  const cpuMs = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  const parts = { fresh: 0, reused: 0, flite: 0, mp3: 0, before: 0 };
  let seconds = 0;
  const host = await prepareFlite(module);
  for (let round = 0; round < 8; round++) {
    for (const text of SENTENCES) {
      let at = cpuMs();
      await prepareFlite(module);
      parts.fresh += cpuMs() - at;
      at = cpuMs();
      const pcm = await runFlite(module, normalizeForFlite(text), DEFAULT_FLITE_VOICE, {}, host);
      parts.flite += cpuMs() - at;
      at = cpuMs();
      host.reset();
      parts.reused += cpuMs() - at;
      at = cpuMs();
      encoder.encode(pcm.samples, pcm.sampleRate, () => false);
      parts.mp3 += cpuMs() - at;
      at = cpuMs();
      lameResampling(pcm.samples, pcm.sampleRate);
      parts.before += cpuMs() - at;
      seconds += pcm.samples.length / pcm.sampleRate;
    }
  }
  const per = (ms: number) => ms / seconds;
  console.log(`CPU ms per second of audio (${SENTENCES.length} sentences × 8, ${seconds.toFixed(0)} audio s)\n`);
  table([
    ["part", "before", "now"],
    ["flite instance (fresh / reused)", per(parts.fresh), per(parts.reused)],
    ["flite", per(parts.flite), per(parts.flite)],
    ["resample + LAME", per(parts.before), per(parts.mp3)],
    ["total", per(parts.fresh + parts.flite + parts.before), per(parts.reused + parts.flite + parts.mp3)],
  ]);
}

// 2. Time to first chunk on an idle pool.
const pool = new LocalSpeechProvider({ workers });
await pool.ready();
await Bun.sleep(1000); // let every worker finish its warm-up
const ttfc: Record<AudioFormat, number[]> = { mp3: [], pcm16: [] };
for (let i = 0; i < ttfcIterations; i++) {
  for (const format of ["mp3", "pcm16"] as const) ttfc[format].push((await speak(pool, FIRST_CLAUSES[i % FIRST_CLAUSES.length], format)).firstMs);
}
console.log(`Time to first chunk, first short clause, idle pool (${ttfcIterations} runs each)\n`);
table([
  ["format", "p50 ms", "p99 ms", "max ms"],
  ...(["mp3", "pcm16"] as const).map((format) => [format, percentile(ttfc[format], 50), percentile(ttfc[format], 99), Math.max(...ttfc[format])]),
]);

// 3. Concurrent limit.
const started = performance.now();
const batch = await Promise.all(Array.from({ length: workers * 6 }, (_, i) => speak(pool, SENTENCES[i % SENTENCES.length], "mp3")));
const wallSeconds = (performance.now() - started) / 1000;
const produced = batch.reduce((sum, result) => sum + result.seconds, 0);
await pool.close();
const rtf = totals.mp3 / totals.audio;
console.log(`Concurrent limit (${workers} workers, mp3)\n`);
table([
  ["measure", "streams"],
  ["workers / RTF (estimate)", workers / rtf],
  ["audio s per wall s, pool kept full", produced / wallSeconds],
]);

/**
 * A synthesis worker: runs flite and encodes one sentence at a time, off the main thread. The first workers
 * of a process compile flite and LAME themselves; later ones get the compiled modules from the pool.
 * It must be listed as an entrypoint of `bun build --compile` (see ./worker-url.ts) to exist in the binary.
 *
 * `mp3`: the whole sentence becomes one MP3 stream, sent as one chunk (see ../audio/mp3-encoder.ts for why).
 * `pcm16`: flite's own 16 kHz samples, in 200 ms chunks.
 */
import { loadMp3Module, MP3_SAMPLE_RATE, Mp3Encoder } from "../audio/mp3-encoder.ts";
import { pcmChunks } from "../audio/pcm-chunks.ts";
import { chunkMarks } from "../marks/chunk-marks.ts";
import { fliteMarks } from "../marks/flite-marks.ts";
import type { FromWorker, JobMessage, ToWorker } from "./protocol.ts";
import { prepareFlite, runFlite } from "./run-flite.ts";
import { DEFAULT_FLITE_VOICE, findFliteVoice } from "./voices.ts";
import type { MemoryWasi } from "./wasi.ts";
import { loadFliteModule } from "./wasm.ts";

declare const self: Worker;

let module: WebAssembly.Module | null = null;
let encoder: Mp3Encoder | null = null;
let cancel: Int32Array | null = null;
/**
 * The instance the next sentence will use: the last one put back as new (../flite/wasi.ts reset()), or a fresh
 * one made while the worker is idle (instantiating takes ~8 ms).
 */
let next: Promise<MemoryWasi> | null = null;

function send(message: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

async function runJob(job: JobMessage): Promise<void> {
  if (!module || !encoder || !cancel) throw new Error("worker used before init");
  const flag = cancel;
  const cancelled = () => Atomics.load(flag, 0) === job.id;
  const started = performance.now();
  const voice = findFliteVoice(job.voiceId) ?? DEFAULT_FLITE_VOICE;
  const host = await (next ?? prepareFlite(module));
  next = null;
  const pcm = await runFlite(module, job.text, voice, job.profile, host, job.marks !== undefined);
  const synthMs = performance.now() - started;
  const audioMs = (pcm.samples.length * 1000) / pcm.sampleRate;
  const sentence = job.marks !== undefined && pcm.segments ? fliteMarks(job.marks, pcm.segments, pcm.samples.length / pcm.sampleRate) : null;
  if (!cancelled() && job.format === "mp3") {
    const data = encoder.encode(pcm.samples, pcm.sampleRate, cancelled);
    if (data && data.length > 0) {
      const chunk = { data, mimeType: "audio/mpeg", sampleRate: MP3_SAMPLE_RATE };
      send({ type: "chunk", id: job.id, ...chunk, ...(sentence ? { marks: chunkMarks(sentence, chunk, 0, true) } : {}) }, [data.buffer]);
    }
  } else if (!cancelled()) {
    const chunks = pcmChunks(pcm.samples, pcm.sampleRate);
    let from = 0;
    for (const [k, data] of chunks.entries()) {
      if (cancelled()) break;
      const chunk = { data, mimeType: "audio/pcm", sampleRate: pcm.sampleRate };
      const marks = sentence ? { marks: chunkMarks(sentence, chunk, from, k === chunks.length - 1) } : {};
      from += data.length / 2 / pcm.sampleRate;
      send({ type: "chunk", id: job.id, ...chunk, ...marks }, [data.buffer]);
    }
  }
  // The same instance again for the next sentence (about 1 ms, against about 8 for a fresh one), after the audio left.
  next = host.reset() ? Promise.resolve(host) : null;
  send({ type: "done", id: job.id, cancelled: cancelled(), synthMs, totalMs: performance.now() - started, audioMs });
}

// A few warm-up sentences at start: the first flite runs and encodes are several times slower (JIT tiers),
// and that cost belongs before the worker says it is ready, not in a child's first answer.
async function warmUp(): Promise<void> {
  if (!module || !encoder) return;
  for (const text of ["Hello there.", "Oh, what a lovely day it is!"]) {
    const pcm = await runFlite(module, text, DEFAULT_FLITE_VOICE, {});
    encoder.encode(pcm.samples, pcm.sampleRate, () => false);
  }
}

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "init") {
    cancel = new Int32Array(message.cancel);
    // Compiled here when no earlier worker did, never on the main thread: flite's 21 MB block a thread for tens of ms.
    const modules = message.modules ?? { flite: await loadFliteModule(), mp3: await loadMp3Module() };
    module = modules.flite;
    encoder = await Mp3Encoder.create(modules.mp3);
    await warmUp();
    next = prepareFlite(module);
    send({ type: "ready", modules });
    return;
  }
  try {
    await runJob(message);
  } catch (error) {
    send({ type: "failed", id: message.id, message: error instanceof Error ? error.message : String(error) });
  }
  if (module) next ??= prepareFlite(module);
};

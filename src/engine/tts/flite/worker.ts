/**
 * A synthesis worker: runs flite, resamples and encodes one sentence at a time, off the main thread.
 * It must be listed as an entrypoint of `bun build --compile` (see ./worker-url.ts) to exist in the binary.
 */
import { MP3_SAMPLE_RATE, encodeMp3 } from "../audio/mp3-encoder.ts";
import { pcmChunks } from "../audio/pcm-chunks.ts";
import { upsample } from "../audio/resample.ts";
import type { FromWorker, JobMessage, ToWorker } from "./protocol.ts";
import { runFlite } from "./run-flite.ts";
import { DEFAULT_FLITE_VOICE, findFliteVoice } from "./voices.ts";

/** PCM is delivered at flite's own rate: resampling would only make it bigger. */
const PCM_SAMPLE_RATE = 16000;

declare const self: Worker;

let module: WebAssembly.Module | null = null;
let cancel: Int32Array | null = null;

function send(message: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

async function runJob(job: JobMessage): Promise<void> {
  if (!module || !cancel) throw new Error("worker used before init");
  const flag = cancel;
  const cancelled = () => Atomics.load(flag, 0) === job.id;
  const started = performance.now();
  const voice = findFliteVoice(job.voiceId) ?? DEFAULT_FLITE_VOICE;
  const pcm = await runFlite(module, job.text, voice, job.profile);
  const synthMs = performance.now() - started;
  const audioMs = (pcm.samples.length * 1000) / pcm.sampleRate;
  let wasCancelled = cancelled();
  if (!wasCancelled && job.format === "mp3") {
    const samples = upsample(pcm.samples, MP3_SAMPLE_RATE / pcm.sampleRate);
    for (const data of encodeMp3(samples, cancelled)) {
      send({ type: "chunk", id: job.id, data, mimeType: "audio/mpeg", sampleRate: MP3_SAMPLE_RATE }, [data.buffer]);
    }
  } else if (!wasCancelled) {
    const samples = upsample(pcm.samples, PCM_SAMPLE_RATE / pcm.sampleRate);
    for (const data of pcmChunks(samples, PCM_SAMPLE_RATE)) {
      if (cancelled()) break;
      send({ type: "chunk", id: job.id, data, mimeType: "audio/pcm", sampleRate: PCM_SAMPLE_RATE }, [data.buffer]);
    }
  }
  wasCancelled = cancelled();
  send({ type: "done", id: job.id, cancelled: wasCancelled, synthMs, totalMs: performance.now() - started, audioMs });
}

// One warm-up sentence at start: the first flite run and the first encode are several times slower
// (JIT tiers), and that cost belongs at boot, not in a child's first answer.
async function warmUp(): Promise<void> {
  if (!module) return;
  const pcm = await runFlite(module, "Hello there.", DEFAULT_FLITE_VOICE, {});
  for (const _ of encodeMp3(upsample(pcm.samples, MP3_SAMPLE_RATE / pcm.sampleRate), () => false));
}

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "init") {
    module = message.module;
    cancel = new Int32Array(message.cancel);
    await warmUp();
    send({ type: "ready" });
    return;
  }
  try {
    await runJob(message);
  } catch (error) {
    send({ type: "failed", id: message.id, message: error instanceof Error ? error.message : String(error) });
  }
};

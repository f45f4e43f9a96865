/**
 * A pool of synthesis workers, so flite and the MP3 encoder never run on the event loop.
 *
 * Data model: `size` slots, each one Worker with its own flite instances (all built from one shared compiled
 * module) and a shared cancel word; one FIFO queue of jobs. A slot runs one job at a time.
 * Rules:
 * - an aborted job that is still queued leaves the queue at once;
 * - an aborted running job ends for its consumer at once; its worker stops at the next chunk boundary, and a
 *   worker that does not report back within `cancelGraceMs` (stuck in one long flite run) is replaced, so a
 *   slot is never held by work nobody wants;
 * - a job running longer than `jobTimeoutMs`, or a worker that crashes, fails that job with a retryable
 *   TtsError and gets a fresh worker; workers that die before ever becoming ready are not respawned forever.
 * - idle workers are unref'd, so an idle pool never keeps the process alive.
 */
import type { AudioFormat, VoiceProfile } from "../../types.ts";
import { ChunkQueue } from "../chunk-queue.ts";
import type { TtsLogger } from "../logger.ts";
import { type AudioChunk, TtsError } from "../types.ts";
import type { FromWorker, JobMessage } from "./protocol.ts";

export interface PoolJob {
  text: string;
  voiceId: string;
  profile: VoiceProfile;
  format: AudioFormat;
}

export interface PoolOptions {
  size: number;
  workerPath: string;
  jobTimeoutMs: number;
  cancelGraceMs: number;
  logger: TtsLogger;
}

interface Job {
  id: number;
  message: JobMessage;
  out: ChunkQueue<AudioChunk>;
  slot: Slot | null;
  timer: Timer | null;
  /** The consumer no longer wants this job's audio (aborted, stopped iterating, or it already ended). */
  stopped: boolean;
  unlisten: () => void;
}

interface Slot {
  worker: Worker;
  cancel: Int32Array;
  ready: boolean;
  running: Job | null;
  graceTimer: Timer | null;
}

const MAX_FAILED_STARTS = 3;

export class FlitePool {
  private readonly queue: Job[] = [];
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private failedStarts = 0;
  private module: WebAssembly.Module | null = null;
  private broken: TtsError | null = null;
  private closed = false;

  constructor(
    module: Promise<WebAssembly.Module>,
    private readonly options: PoolOptions,
  ) {
    module.then(
      (compiled) => {
        this.module = compiled;
        if (this.closed) return;
        for (let i = 0; i < options.size; i++) this.slots.push(this.spawn());
      },
      (error: unknown) => this.breakPool(`flite could not be loaded: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /** Resolves once at least one worker is ready (or rejects if the engine cannot start). */
  async ready(): Promise<void> {
    while (!this.slots.some((slot) => slot.ready)) {
      if (this.broken) throw this.broken;
      if (this.closed) throw new TtsError("speech engine is closed", false);
      await Bun.sleep(10);
    }
  }

  /**
   * Queues one sentence; audio chunks arrive in the returned stream as the worker produces them.
   * @example for await (const chunk of pool.submit(job, signal)) send(chunk)
   */
  submit(request: PoolJob, signal: AbortSignal): AsyncIterable<AudioChunk> {
    const id = this.nextId++;
    const message: JobMessage = { type: "job", id, ...request };
    const job: Job = { id, message, out: new ChunkQueue<AudioChunk>(() => this.cancel(job)), slot: null, timer: null, stopped: false, unlisten: () => {} };
    if (this.broken || this.closed) {
      job.out.fail(this.broken ?? new TtsError("speech engine is closed", false));
      return job.out;
    }
    if (signal.aborted) {
      job.out.end();
      return job.out;
    }
    const onAbort = () => this.cancel(job);
    signal.addEventListener("abort", onAbort, { once: true });
    job.unlisten = () => signal.removeEventListener("abort", onAbort);
    // The deadline covers waiting and running, so no caller can hang on a pool that never gets to its job.
    job.timer = setTimeout(() => this.timeOut(job), this.options.jobTimeoutMs);
    this.queue.push(job);
    this.dispatch();
    return job.out;
  }

  /** Stops every worker; queued and running jobs fail with a non-retryable TtsError. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new TtsError("speech engine is closed", false);
    for (const job of this.queue.splice(0)) this.finish(job, error);
    for (const slot of this.slots) {
      if (slot.running) this.finish(slot.running, error);
      this.stopWorker(slot);
    }
    this.slots.length = 0;
  }

  /** Jobs waiting for a worker (for metrics and tests). */
  get queued(): number {
    return this.queue.length;
  }

  /** Workers currently running a job, cancelled ones included until they report back. */
  get busy(): number {
    return this.slots.filter((slot) => slot.running).length;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.running) continue;
      const job = this.queue.shift();
      if (job) this.start(slot, job);
    }
  }

  private start(slot: Slot, job: Job): void {
    slot.running = job;
    job.slot = slot;
    Atomics.store(slot.cancel, 0, 0);
    keepAlive(slot.worker, true);
    slot.worker.postMessage(job.message);
  }

  private cancel(job: Job): void {
    if (job.stopped) return;
    const index = this.queue.indexOf(job);
    if (index >= 0) this.queue.splice(index, 1);
    // Audio already produced but not yet read is dropped too: an interrupted sentence must not play on.
    job.out.abort();
    this.finish(job, null);
    const slot = job.slot;
    if (!slot || slot.running !== job) return;
    Atomics.store(slot.cancel, 0, job.id);
    slot.graceTimer = setTimeout(() => {
      this.options.logger.warn({ jobId: job.id }, "tts worker did not stop after cancel; replacing it");
      this.replace(slot);
    }, this.options.cancelGraceMs);
  }

  private timeOut(job: Job): void {
    const running = job.slot?.running === job;
    this.options.logger.warn({ jobId: job.id, timeoutMs: this.options.jobTimeoutMs, running }, "tts job timed out");
    const index = this.queue.indexOf(job);
    if (index >= 0) this.queue.splice(index, 1);
    this.finish(job, new TtsError("speech synthesis timed out", true));
    if (running && job.slot) this.replace(job.slot);
  }

  private finish(job: Job, error: TtsError | null): void {
    job.stopped = true;
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
    job.unlisten();
    if (error) job.out.fail(error);
    else job.out.end();
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === "ready") {
      slot.ready = true;
      this.failedStarts = 0;
      this.dispatch();
      return;
    }
    const job = slot.running;
    if (!job || job.id !== message.id) return;
    if (message.type === "chunk") {
      job.out.push({ data: message.data, mimeType: message.mimeType, sampleRate: message.sampleRate });
      return;
    }
    if (message.type === "failed") {
      this.options.logger.warn({ jobId: job.id, reason: message.message }, "tts job failed");
      this.finish(job, new TtsError("speech synthesis failed", true));
    } else {
      const { synthMs, totalMs, audioMs, cancelled } = message;
      this.options.logger.debug({ jobId: job.id, chars: job.message.text.length, synthMs, totalMs, audioMs, cancelled }, "tts job done");
      this.finish(job, null);
    }
    this.release(slot);
  }

  private release(slot: Slot): void {
    if (slot.graceTimer) clearTimeout(slot.graceTimer);
    slot.graceTimer = null;
    slot.running = null;
    keepAlive(slot.worker, false);
    this.dispatch();
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.workerPath, { smol: true });
    const cancel = new SharedArrayBuffer(4);
    const slot: Slot = { worker, cancel: new Int32Array(cancel), ready: false, running: null, graceTimer: null };
    worker.onmessage = (event: MessageEvent<FromWorker>) => this.onMessage(slot, event.data);
    worker.onerror = (event: ErrorEvent) => {
      this.options.logger.error({ reason: event.message }, "tts worker crashed");
      if (!slot.ready && ++this.failedStarts >= MAX_FAILED_STARTS) return this.breakPool("speech workers fail to start");
      this.replace(slot);
    };
    keepAlive(worker, false);
    if (this.module) worker.postMessage({ type: "init", module: this.module, cancel });
    return slot;
  }

  /** Swaps a slot's worker for a fresh one; the job it was running (if still wanted) fails as retryable. */
  private replace(slot: Slot): void {
    if (slot.running && !slot.running.stopped) this.finish(slot.running, new TtsError("speech worker stopped", true));
    this.stopWorker(slot);
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.closed || this.broken) return;
    this.slots[index] = this.spawn();
  }

  private stopWorker(slot: Slot): void {
    if (slot.graceTimer) clearTimeout(slot.graceTimer);
    slot.graceTimer = null;
    if (slot.running?.timer) clearTimeout(slot.running.timer);
    slot.running = null;
    slot.worker.onmessage = null;
    slot.worker.onerror = null;
    slot.worker.terminate();
  }

  private breakPool(reason: string): void {
    this.broken = new TtsError(reason, false);
    this.options.logger.error({ reason }, "tts engine unavailable");
    for (const job of this.queue.splice(0)) this.finish(job, this.broken);
    for (const slot of this.slots) {
      if (slot.running) this.finish(slot.running, this.broken);
      this.stopWorker(slot);
    }
    this.slots.length = 0;
  }
}

/** A busy worker keeps the process alive; an idle one must not. */
function keepAlive(worker: Worker, on: boolean): void {
  // Bun's Worker has ref()/unref(); the DOM Worker type the compiler sees (lib "DOM" is loaded) does not.
  const handle = worker as Worker & Partial<Pick<Bun.Worker, "ref" | "unref">>;
  if (on) handle.ref?.();
  else handle.unref?.();
}

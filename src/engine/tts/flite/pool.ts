/**
 * A pool of synthesis workers, so flite and the MP3 encoder never run on the event loop.
 *
 * Data model: `size` worker slots (each with its own flite instances, all built from one shared compiled
 * module), one FIFO queue of jobs, and for each busy slot the job it runs. A slot runs one job at a time.
 * Rules:
 * - a job has one deadline (`jobTimeoutMs`) covering queueing and running; past it the job fails with a
 *   retryable TtsError, and if it was running its worker is replaced;
 * - an aborted queued job leaves the queue at once; an aborted running job ends for its consumer at once
 *   (unread audio dropped), its worker stops at the next chunk boundary, and a worker that has not reported
 *   back within `cancelGraceMs` (stuck in one long flite run) is replaced, so nobody waits on unwanted work;
 * - a crashed worker fails its job (retryable) and is replaced; if workers keep dying before they are ready,
 *   the pool gives up and fails everything with a non-retryable TtsError instead of respawning forever.
 */
import type { AudioFormat, VoiceProfile } from "../../types.ts";
import { ChunkQueue } from "../chunk-queue.ts";
import type { TtsLogger } from "../logger.ts";
import { type AudioChunk, TtsError } from "../types.ts";
import type { FromWorker } from "./protocol.ts";
import { WorkerSlot } from "./worker-slot.ts";

export interface PoolJob {
  text: string;
  voiceId: string;
  profile: VoiceProfile;
  format: AudioFormat;
  /** When the audio is needed (performance.now() ms); the queue serves the earliest first. */
  due?: number;
}

export interface PoolOptions {
  size: number;
  workerPath: string;
  jobTimeoutMs: number;
  cancelGraceMs: number;
  logger: TtsLogger;
}

interface Job extends PoolJob {
  id: number;
  out: ChunkQueue<AudioChunk>;
  deadline: Timer | null;
  /** True once the consumer has its ending (done, failed, aborted): later output is dropped. */
  settled: boolean;
  unlisten: () => void;
}

const MAX_FAILED_STARTS = 3;

export class FlitePool {
  private readonly queue: Job[] = [];
  private slots: WorkerSlot[] = [];
  private readonly running = new Map<WorkerSlot, Job>();
  private readonly graceTimers = new Map<WorkerSlot, Timer>();
  private module: WebAssembly.Module | null = null;
  private failedStarts = 0;
  private nextId = 1;
  private stopped: TtsError | null = null;

  constructor(
    module: Promise<WebAssembly.Module>,
    private readonly options: PoolOptions,
  ) {
    module.then(
      (compiled) => {
        this.module = compiled;
        if (!this.stopped) this.slots = Array.from({ length: options.size }, () => this.spawn(compiled));
      },
      (error: unknown) => this.shutDown(new TtsError(`flite could not be loaded (${error instanceof Error ? error.message : "unknown error"})`, false)),
    );
  }

  /** Resolves once a worker is warm; rejects if the engine cannot start or was closed. */
  async ready(): Promise<void> {
    while (!this.slots.some((slot) => slot.ready)) {
      if (this.stopped) throw this.stopped;
      await Bun.sleep(10);
    }
  }

  /**
   * Queues one sentence; its chunks arrive in the returned stream as the worker produces them.
   * @example for await (const chunk of pool.submit(job, signal)) send(chunk)
   */
  submit(request: PoolJob, signal: AbortSignal): AsyncIterable<AudioChunk> {
    const job: Job = { ...request, id: this.nextId++, out: new ChunkQueue<AudioChunk>(() => this.cancel(job)), deadline: null, settled: false, unlisten: () => {} };
    if (this.stopped) {
      this.settle(job, this.stopped);
      return job.out;
    }
    if (signal.aborted) {
      this.settle(job, null);
      return job.out;
    }
    const onAbort = () => this.cancel(job);
    signal.addEventListener("abort", onAbort, { once: true });
    job.unlisten = () => signal.removeEventListener("abort", onAbort);
    job.deadline = setTimeout(() => this.expire(job), this.options.jobTimeoutMs);
    this.enqueue(job);
    this.dispatch();
    return job.out;
  }

  /** Stops every worker; queued and running jobs fail with a non-retryable TtsError. */
  async close(): Promise<void> {
    this.shutDown(new TtsError("speech engine is closed", false), false);
  }

  /**
   * Earliest-due first (ties keep arrival order). With plain first-in first-out, many turns starting together
   * put every turn's second sentence behind every other turn's first, and sessions fall behind their playback.
   */
  private enqueue(job: Job): void {
    const due = job.due ?? performance.now();
    job.due = due;
    let i = this.queue.length;
    while (i > 0 && (this.queue[i - 1]!.due ?? 0) > due) i--;
    this.queue.splice(i, 0, job);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || this.running.has(slot)) continue;
      const job = this.queue.shift();
      if (!job) return;
      this.running.set(slot, job);
      slot.run({ type: "job", id: job.id, text: job.text, voiceId: job.voiceId, profile: job.profile, format: job.format });
    }
  }

  private slotOf(job: Job): WorkerSlot | null {
    for (const [slot, running] of this.running) if (running === job) return slot;
    return null;
  }

  private cancel(job: Job): void {
    if (job.settled) return;
    this.dequeue(job);
    // Audio produced but not yet read is dropped too: an interrupted sentence must not play on.
    job.out.abort();
    this.settle(job, null);
    const slot = this.slotOf(job);
    if (!slot) return;
    slot.cancel(job.id);
    this.graceTimers.set(
      slot,
      setTimeout(() => {
        this.options.logger.warn({ jobId: job.id }, "tts worker did not stop after cancel; replacing it");
        this.replace(slot);
      }, this.options.cancelGraceMs),
    );
  }

  private expire(job: Job): void {
    const slot = this.slotOf(job);
    this.options.logger.warn({ jobId: job.id, timeoutMs: this.options.jobTimeoutMs, running: slot !== null }, "tts job timed out");
    this.dequeue(job);
    this.settle(job, new TtsError("speech synthesis timed out", true));
    if (slot) this.replace(slot);
  }

  private dequeue(job: Job): void {
    const index = this.queue.indexOf(job);
    if (index >= 0) this.queue.splice(index, 1);
  }

  /** Gives the consumer its ending (once): the end of the stream, or `error`. */
  private settle(job: Job, error: TtsError | null): void {
    if (job.settled) return;
    job.settled = true;
    if (job.deadline) clearTimeout(job.deadline);
    job.unlisten();
    if (error) job.out.fail(error);
    else job.out.end();
  }

  private onMessage(slot: WorkerSlot, message: FromWorker): void {
    if (message.type === "ready") {
      this.failedStarts = 0;
      return this.dispatch();
    }
    const job = this.running.get(slot);
    if (!job || job.id !== message.id) return;
    if (message.type === "chunk") {
      if (!job.settled) job.out.push({ data: message.data, mimeType: message.mimeType, sampleRate: message.sampleRate });
      return;
    }
    if (message.type === "failed") {
      this.options.logger.warn({ jobId: job.id, reason: message.message }, "tts job failed");
      this.settle(job, new TtsError("speech synthesis failed", true));
    } else {
      const { synthMs, totalMs, audioMs, cancelled } = message;
      this.options.logger.debug({ jobId: job.id, chars: job.text.length, synthMs, totalMs, audioMs, cancelled }, "tts job done");
      this.settle(job, null);
    }
    this.free(slot);
    slot.idle();
    this.dispatch();
  }

  private onCrash(slot: WorkerSlot, reason: string): void {
    this.options.logger.error({ reason }, "tts worker crashed");
    if (!slot.ready && ++this.failedStarts >= MAX_FAILED_STARTS) return this.shutDown(new TtsError("speech workers fail to start", false));
    this.replace(slot);
  }

  private free(slot: WorkerSlot): void {
    clearTimeout(this.graceTimers.get(slot));
    this.graceTimers.delete(slot);
    this.running.delete(slot);
  }

  /** Swaps a slot's worker for a fresh one; the job it was running (if still wanted) fails as retryable. */
  private replace(slot: WorkerSlot): void {
    const job = this.running.get(slot);
    if (job) this.settle(job, new TtsError("speech worker stopped", true));
    this.free(slot);
    slot.stop();
    const index = this.slots.indexOf(slot);
    if (index >= 0 && this.module && !this.stopped) this.slots[index] = this.spawn(this.module);
  }

  private spawn(module: WebAssembly.Module): WorkerSlot {
    return new WorkerSlot(this.options.workerPath, module, {
      message: (slot, message) => this.onMessage(slot, message),
      crash: (slot, reason) => this.onCrash(slot, reason),
    });
  }

  private shutDown(error: TtsError, unexpected = true): void {
    if (this.stopped) return;
    this.stopped = error;
    if (unexpected) this.options.logger.error({ reason: error.message }, "tts engine unavailable");
    for (const job of this.queue.splice(0)) this.settle(job, error);
    for (const slot of this.slots) {
      const job = this.running.get(slot);
      if (job) this.settle(job, error);
      this.free(slot);
      slot.stop();
    }
    this.slots = [];
  }
}

/**
 * A pool of synthesis workers, so flite and the MP3 encoder never run on the event loop.
 *
 * Data model: `size` worker slots, one queue of jobs, and for each busy slot the job it runs. A slot runs one
 * job at a time. The first workers of the process compile flite and LAME (off the main thread) and hand the
 * compiled modules back; every later worker, of any pool, starts from those.
 * Rules:
 * - a free worker takes the queued job that must start first to be ready when its audio is needed: its need
 *   (its turn timeline's, see ../schedule.ts, else its `due`, else the time it was submitted) minus the work it
 *   is expected to take, so a long sentence starts ahead of a short one needed at the same moment;
 * - under load (more jobs queued than there are workers) no job starts more than `leadMs` before it must
 *   start: a turn's later sentences wait until shortly before the child will need them instead of being made
 *   as fast as possible. Otherwise a client that asks for its next turn as soon as the last audio arrived
 *   (before it played) would take every free moment of the workers, the queue would stay full, every turn would
 *   run at the edge of its deadlines, and the sentences of a turn the child interrupts would be made for
 *   nothing. With a short queue, work starts at once (a lone session gets its whole reply quickly);
 * - deadlines count work, not queueing: `jobTimeoutMs` starts when a worker takes the job. A worker that is
 *   still on one sentence past it is stuck (a sentence takes well under a second): its job fails (retryable)
 *   and the worker is replaced;
 * - an aborted queued job leaves the queue at once; an aborted running job ends for its consumer at once
 *   (unread audio dropped) and its worker stops at its next step (after the flite run in progress), then
 *   takes the next job. It is replaced instead only when finishing would cost more than a fresh worker: the
 *   job's expected work is over `respawnCostMs` and the worker has not come back within `cancelGraceMs`.
 *   So capacity is never thrown away when it is short;
 * - a crashed worker fails its job (retryable) and is replaced; if workers keep dying before they are ready,
 *   the pool gives up and fails everything with a non-retryable TtsError instead of respawning forever.
 */
import { Channel } from "../../pipeline/channel.ts";
import type { AudioFormat, VoiceProfile } from "../../types.ts";
import type { TtsLogger } from "../logger.ts";
import type { TurnTimeline } from "../schedule.ts";
import { type AudioChunk, TtsError, type TtsObserver } from "../types.ts";
import type { FromWorker, WasmModules } from "./protocol.ts";
import { WorkerSlot } from "./worker-slot.ts";

export interface PoolJob {
  text: string;
  voiceId: string;
  profile: VoiceProfile;
  format: AudioFormat;
  /** The sentence as the turn writes it, when its marks are wanted. */
  marks?: string;
  /** The turn this sentence belongs to and its place in it: the job is needed when the timeline says. */
  turn?: { timeline: TurnTimeline; slot: number };
  /** Without a turn: when the audio is needed (performance.now() ms); default: when submitted. */
  due?: number;
  /** Work this sentence is expected to take (ms), to decide whether a cancelled run is worth waiting for. */
  expectedMs?: number;
}

export interface PoolOptions {
  size: number;
  workerPath: string;
  /** Work deadline of one job, from the moment a worker takes it. */
  jobTimeoutMs: number;
  /** A cancelled job expected to take longer than this is not waited for: its worker is replaced... */
  respawnCostMs?: number;
  /** ...if it has not come back within this. */
  cancelGraceMs?: number;
  /** Under load, how long before it must start a job may start (default 1500 ms). */
  leadMs?: number;
  logger: TtsLogger;
  observer?: TtsObserver;
  /** Each job's work and audio, for the capacity estimate. */
  onMeasured?(workMs: number, audioMs: number): void;
}

interface Job extends PoolJob {
  id: number;
  out: Channel<AudioChunk>;
  submittedAt: number;
  deadline: Timer | null;
  /** True once the consumer has its ending (done, failed, aborted): later output is dropped. */
  settled: boolean;
  delivered: boolean;
  unlisten: () => void;
}

const MAX_FAILED_STARTS = 3;
/**
 * How long a turn's first sentence may wait before the queue counts as late: a child waits a moment for an
 * answer to start, but a later sentence that is late is a gap in the middle of one.
 */
const FIRST_SENTENCE_GRACE_MS = 700;
/** Compiled by the first worker that got ready in this process. */
let compiled: WasmModules | null = null;

export class FlitePool {
  private readonly queue: Job[] = [];
  private slots: WorkerSlot[] = [];
  private readonly running = new Map<WorkerSlot, Job>();
  private started = false;
  /** When the first worker became ready: until then nothing counts as late (the engine is warming up). */
  private readySince: number | null = null;
  private failedStarts = 0;
  private nextId = 1;
  private stopped: TtsError | null = null;
  /** Wakes dispatch when the first job held back under load may start. */
  private wake: Timer | null = null;

  /** The workers are spawned when `start` resolves (the provider passes "after this tick", tests pass now). */
  constructor(
    start: Promise<void>,
    private readonly options: PoolOptions,
  ) {
    void start.then(() => {
      this.started = true;
      if (!this.stopped) this.slots = Array.from({ length: options.size }, () => this.spawn());
    });
  }

  /** Resolves once a worker is warm; rejects if the engine cannot start or was closed. */
  async ready(): Promise<void> {
    while (!this.slots.some((slot) => slot.ready)) {
      if (this.stopped) throw this.stopped;
      await Bun.sleep(10);
    }
  }

  /**
   * How late the queue is now, in ms: the most any queued job is past its need (a turn's first sentence gets
   * FIRST_SENTENCE_GRACE_MS first), counted only since a worker was ready. 0 when nothing is late.
   */
  lagMs(now = performance.now()): number {
    if (this.readySince === null) return 0;
    let lag = 0;
    for (const job of this.queue) {
      const grace = job.turn?.slot === 0 ? FIRST_SENTENCE_GRACE_MS : 0;
      lag = Math.max(lag, now - Math.max(this.needOf(job), this.readySince) - grace);
    }
    return lag;
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Queues one sentence; its chunks arrive in the returned stream as the worker produces them.
   * @example for await (const chunk of pool.submit(job, signal)) send(chunk)
   */
  submit(request: PoolJob, signal: AbortSignal): AsyncIterable<AudioChunk> {
    const job: Job = {
      ...request,
      id: this.nextId++,
      out: new Channel<AudioChunk>(signal),
      submittedAt: performance.now(),
      deadline: null,
      settled: false,
      delivered: false,
      unlisten: () => {},
    };
    if (this.stopped || signal.aborted) {
      this.settle(job, signal.aborted ? null : this.stopped);
      return job.out;
    }
    const onAbort = () => this.cancel(job);
    signal.addEventListener("abort", onAbort, { once: true });
    job.unlisten = () => signal.removeEventListener("abort", onAbort);
    this.queue.push(job);
    this.dispatch();
    return job.out;
  }

  /** Stops every worker; queued and running jobs fail with a non-retryable TtsError. */
  async close(): Promise<void> {
    this.shutDown(new TtsError("speech engine is closed", false), false);
  }

  private needOf(job: Job): number {
    if (job.turn) return job.turn.timeline.needOf(job.turn.slot);
    return job.due ?? job.submittedAt;
  }

  /**
   * The queued job that must start first (ties: the one queued first); under load, none when even that one
   * need not start within `leadMs` (a timer then wakes dispatch when it may).
   */
  private takeMostUrgent(): Job | undefined {
    let best = -1;
    let bestStart = Infinity;
    for (let i = 0; i < this.queue.length; i++) {
      const job = this.queue[i];
      const start = this.needOf(job) - (job.expectedMs ?? 0);
      if (start < bestStart) {
        best = i;
        bestStart = start;
      }
    }
    if (best < 0) return undefined;
    const early = bestStart - (this.options.leadMs ?? 1500) - performance.now();
    if (early > 0 && this.queue.length > this.options.size) {
      if (this.wake) clearTimeout(this.wake);
      this.wake = setTimeout(() => {
        this.wake = null;
        this.dispatch();
      }, Math.ceil(early));
      this.wake.unref?.();
      return undefined;
    }
    return this.queue.splice(best, 1)[0];
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || this.running.has(slot)) continue;
      const job = this.takeMostUrgent();
      if (!job) return;
      this.running.set(slot, job);
      this.options.observer?.queued?.(performance.now() - job.submittedAt);
      job.deadline = setTimeout(() => this.expire(slot, job), this.options.jobTimeoutMs);
      slot.run({ type: "job", id: job.id, text: job.text, voiceId: job.voiceId, profile: job.profile, format: job.format, marks: job.marks });
    }
  }

  private slotOf(job: Job): WorkerSlot | null {
    for (const [slot, running] of this.running) if (running === job) return slot;
    return null;
  }

  /** The consumer no longer wants `job`: drop it from the queue, or ask its worker to stop at the next step. */
  private cancel(job: Job): void {
    if (job.settled) return;
    const index = this.queue.indexOf(job);
    if (index >= 0) this.queue.splice(index, 1);
    this.settle(job, null);
    const slot = this.slotOf(job);
    if (!slot) return;
    // The worker finishes its current step (at most one flite run) and then reports back: for a normal
    // sentence that is sooner and cheaper than warming up a new worker. Its work deadline still applies.
    slot.cancel(job.id);
    if ((job.expectedMs ?? 0) <= (this.options.respawnCostMs ?? 1000)) return;
    setTimeout(() => {
      if (this.running.get(slot) !== job) return;
      this.options.logger.warn({ jobId: job.id, chars: job.text.length }, "tts worker busy with a long cancelled sentence; replacing it");
      this.replace(slot, new TtsError("speech worker stopped", true));
    }, this.options.cancelGraceMs ?? 250);
  }

  private expire(slot: WorkerSlot, job: Job): void {
    if (this.running.get(slot) !== job) return;
    this.options.logger.warn({ jobId: job.id, timeoutMs: this.options.jobTimeoutMs, chars: job.text.length }, "tts worker stuck on one sentence; replacing it");
    this.replace(slot, new TtsError("speech synthesis timed out", true));
  }

  /** Gives the consumer its ending (once): the end of the stream, or `error`. Aborted streams are already empty. */
  private settle(job: Job, error: TtsError | null): void {
    if (job.settled) return;
    job.settled = true;
    job.unlisten();
    if (error) job.out.fail(error);
    else job.out.close();
  }

  private onMessage(slot: WorkerSlot, message: FromWorker): void {
    if (message.type === "ready") {
      compiled ??= message.modules ?? null;
      this.readySince ??= performance.now();
      this.failedStarts = 0;
      return this.dispatch();
    }
    const job = this.running.get(slot);
    if (!job || job.id !== message.id) return;
    if (message.type === "chunk") {
      if (job.settled) return;
      if (!job.delivered) {
        job.delivered = true;
        if (job.turn) job.turn.timeline.delivered(job.turn.slot, performance.now());
      }
      // push() is false once the consumer left without aborting: stop the work too.
      const chunk = { data: message.data, mimeType: message.mimeType, sampleRate: message.sampleRate };
      if (!job.out.push(message.marks ? { ...chunk, marks: message.marks } : chunk)) this.cancel(job);
      return;
    }
    if (message.type === "failed") {
      this.options.logger.warn({ jobId: job.id, reason: message.message }, "tts job failed");
      this.settle(job, new TtsError("speech synthesis failed", true));
    } else {
      const { synthMs, totalMs, audioMs, cancelled } = message;
      this.options.logger.debug({ jobId: job.id, chars: job.text.length, synthMs, totalMs, audioMs, cancelled }, "tts job done");
      if (job.turn) job.turn.timeline.finished(job.turn.slot, audioMs / 1000);
      if (!cancelled) {
        this.options.observer?.synthesized?.(totalMs, audioMs / 1000);
        this.options.onMeasured?.(totalMs, audioMs);
      }
      this.settle(job, null);
    }
    this.free(slot);
    slot.idle();
    this.dispatch();
  }

  private onCrash(slot: WorkerSlot, reason: string): void {
    this.options.logger.error({ reason }, "tts worker crashed");
    if (!slot.ready && ++this.failedStarts >= MAX_FAILED_STARTS) return this.shutDown(new TtsError("speech workers fail to start", false));
    this.replace(slot, new TtsError("speech worker stopped", true));
  }

  private free(slot: WorkerSlot): void {
    const job = this.running.get(slot);
    if (job?.deadline) clearTimeout(job.deadline);
    this.running.delete(slot);
  }

  /** Swaps a slot's worker for a fresh one; the job it was running (if still wanted) fails with `error`. */
  private replace(slot: WorkerSlot, error: TtsError): void {
    const job = this.running.get(slot);
    if (job) this.settle(job, error);
    this.free(slot);
    slot.stop();
    const index = this.slots.indexOf(slot);
    if (index >= 0 && this.started && !this.stopped) this.slots[index] = this.spawn();
  }

  private spawn(): WorkerSlot {
    return new WorkerSlot(this.options.workerPath, compiled, {
      message: (slot, message) => this.onMessage(slot, message),
      crash: (slot, reason) => this.onCrash(slot, reason),
    });
  }

  private shutDown(error: TtsError, unexpected = true): void {
    if (this.stopped) return;
    this.stopped = error;
    if (unexpected) this.options.logger.error({ reason: error.message }, "tts engine unavailable");
    if (this.wake) clearTimeout(this.wake);
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

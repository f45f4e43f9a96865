/**
 * The offline speech provider: flite (WebAssembly) in a pool of Bun workers. Audio never leaves the machine
 * and nothing is downloaded: the wasm files are embedded in the executable.
 *
 * Formats: `mp3` is MPEG-1 Layer III, 44.1 kHz, mono, VBR (about 45 kbps), no CRC; each sentence is one MP3 stream
 * delivered as one chunk, mime type `audio/mpeg`. `pcm16` is little-endian signed 16-bit mono at 16 kHz
 * (flite's own rate), chunks of 200 ms (6,400 bytes), mime type `audio/pcm`.
 *
 * Start-up: nothing is compiled or spawned while the app is being built. The workers are spawned from the next
 * turn of the event loop (after the server listens) and each compiles the wasm itself, so compiling never
 * blocks the main thread. Requests made before a worker is warm wait for it.
 */
import { availableParallelism } from "node:os";
import { Channel } from "../pipeline/channel.ts";
import { SpeechCapacity } from "./capacity.ts";
import { isSpeakable, normalizeForFlite } from "./flite/normalize-text.ts";
import { FlitePool } from "./flite/pool.ts";
import { FLITE_VOICES, findFliteVoice } from "./flite/voices.ts";
import { fliteWorkerPath } from "./flite/worker-url.ts";
import { silentLogger, type TtsLogger } from "./logger.ts";
import { estimateSeconds, TurnTimeline } from "./schedule.ts";
import { type AudioChunk, type SpeechRequest, type SpeechTicket, TtsError, type TtsObserver, type TtsProvider } from "./types.ts";

export interface LocalSpeechOptions {
  /** Synthesis workers; default: the cores this process may run on (its CPU affinity). */
  workers?: number;
  /** Work deadline of one sentence, from the moment a worker takes it (default 15 s). */
  timeoutMs?: number;
  /** Turns that may speak at once; 0 (default) = as many as the measured speed keeps in real time. */
  maxTurns?: number;
  /** New turns are refused while the speech queue is this late (default 300 ms). */
  maxLagMs?: number;
  observer?: TtsObserver;
  logger?: TtsLogger;
}

/** What the local engine is doing, for benchmarks, tests and operators. */
export interface LocalSpeechStats {
  workers: number;
  /** Turns holding a ticket, and how many may. */
  turns: number;
  limit: number;
  /** Measured seconds of work per second of audio. */
  rtf: number;
  queued: number;
  lagMs: number;
}

/** The per-turn ticket: a capacity reservation plus the turn's playback timeline. */
class TurnTicket implements SpeechTicket {
  readonly timeline = new TurnTimeline();
  constructor(private readonly reservation: SpeechTicket) {}
  release(): void {
    this.reservation.release();
  }
}

/**
 * The cores this process may run on: its CPU affinity (what `nproc` prints), not the machine's core count.
 * @example usableCores() // 2 under `taskset -c 0,1`
 */
export function usableCores(): number {
  return Math.max(1, availableParallelism());
}

export class LocalSpeechProvider implements TtsProvider {
  readonly name = "local";
  private readonly pool: FlitePool | null = null;
  private readonly capacity: SpeechCapacity;
  private readonly unavailable: TtsError | null = null;
  private readonly workers: number;
  private readonly observer: TtsObserver;

  constructor(options: LocalSpeechOptions = {}) {
    const logger = options.logger ?? silentLogger;
    this.workers = options.workers ?? usableCores();
    this.observer = options.observer ?? {};
    this.capacity = new SpeechCapacity(
      { workers: this.workers, maxTurns: options.maxTurns ?? 0, maxLagMs: options.maxLagMs ?? 300 },
      () => this.pool?.lagMs() ?? 0,
    );
    const workerPath = fliteWorkerPath();
    if (!workerPath) {
      // Reported on every request rather than thrown here, so the server still starts and says what is wrong.
      this.unavailable = new TtsError(
        "speech worker is missing from this build (add src/engine/tts/flite/worker.ts to the bun build --compile entrypoints)",
        false,
      );
      logger.error({}, this.unavailable.message);
      return;
    }
    this.pool = new FlitePool(afterThisTick(), {
      size: this.workers,
      workerPath,
      jobTimeoutMs: options.timeoutMs ?? 15_000,
      logger,
      observer: this.observer,
      onMeasured: (workMs, audioMs) => this.capacity.measured(workMs, audioMs),
    });
  }

  voices(): string[] {
    return FLITE_VOICES.map((voice) => voice.id);
  }

  /** Resolves when a worker is warm. Optional: requests made earlier simply wait for it. */
  ready(): Promise<void> {
    return this.pool ? this.pool.ready() : Promise.reject(this.unavailable);
  }

  /**
   * Reserves speech for one turn, or null when the engine cannot keep another voice in real time now.
   * @example const ticket = tts.admit(); if (!ticket) sayTextOnly(); else try { ... } finally { ticket.release() }
   */
  admit(): SpeechTicket | null {
    const reservation = this.capacity.reserve();
    this.observer.admission?.(reservation !== null);
    return reservation ? new TurnTicket(reservation) : null;
  }

  /** What the engine is doing now. */
  stats(): LocalSpeechStats {
    return {
      workers: this.workers,
      turns: this.capacity.inUse,
      limit: this.capacity.limit,
      rtf: this.capacity.rtf,
      queued: this.pool?.queued ?? 0,
      lagMs: this.pool?.lagMs() ?? 0,
    };
  }

  /**
   * Queues the sentence at once (before iteration starts) and streams its audio.
   * @example for await (const chunk of tts.synthesize({ text, voice: {}, format: "mp3", signal, ticket })) send(chunk)
   */
  synthesize(request: SpeechRequest): AsyncIterable<AudioChunk> {
    const voice = findFliteVoice(request.voice.voice_id);
    if (!voice) return ended(new TtsError("unknown voice", false));
    if (!this.pool) return ended(this.unavailable ?? new TtsError("speech engine unavailable", false));
    const text = normalizeForFlite(request.text);
    if (!isSpeakable(text)) return ended(null);
    const timeline = request.ticket instanceof TurnTicket ? request.ticket.timeline : null;
    const seconds = estimateSeconds(text, request.voice.speed ?? 1);
    const turn = timeline ? { timeline, slot: timeline.place(seconds, performance.now()) } : undefined;
    const expectedMs = seconds * this.capacity.rtf * 1000;
    const marks = request.marks ? (request.written ?? request.text) : undefined;
    return this.pool.submit(
      { text, voiceId: voice.id, profile: request.voice, format: request.format, marks, turn, due: request.due, expectedMs },
      request.signal,
    );
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

/** Resolves on the next turn of the event loop: after the code building the app (and listening) has run. */
function afterThisTick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A stream that ends at once, with `error` or empty. */
function ended(error: TtsError | null): AsyncIterable<AudioChunk> {
  const channel = new Channel<AudioChunk>();
  if (error) channel.fail(error);
  else channel.close();
  return channel;
}

/**
 * The worker pool's scheduling and failure handling, with workers that implement the real message protocol but
 * crash, hang or take their time on demand (fixtures/fake-worker.ts), so the cases are deterministic.
 */
import { afterEach, describe, expect, it } from "bun:test";
import { fileURLToPath } from "node:url";
import { FlitePool, type PoolJob, type PoolOptions } from "../../../src/engine/tts/flite/pool.ts";
import { TtsError } from "../../../src/engine/tts/index.ts";
import { TurnTimeline } from "../../../src/engine/tts/schedule.ts";
import { caught, collect, recordingLogger } from "./helpers.ts";

const FAKE = fileURLToPath(new URL("./fixtures/fake-worker.ts", import.meta.url));
const BROKEN = fileURLToPath(new URL("./fixtures/broken-worker.ts", import.meta.url));

let pool: FlitePool | null = null;

async function start(workerPath: string, options: Partial<PoolOptions> = {}): Promise<FlitePool> {
  pool = new FlitePool(Promise.resolve(), { size: 1, workerPath, jobTimeoutMs: 5000, cancelGraceMs: 100, logger: recordingLogger(), ...options });
  if (workerPath === FAKE) await pool.ready();
  return pool;
}

function job(text: string, extra: Partial<PoolJob> = {}): PoolJob {
  return { text, voiceId: "slt", profile: {}, format: "pcm16", ...extra };
}

const never = () => new AbortController().signal;

/** Which fake worker answered (the last byte of its chunk). */
async function workerOf(stream: AsyncIterable<{ data: Uint8Array }>): Promise<number> {
  const { chunks } = await collect(stream as AsyncIterable<never>);
  return (chunks[0] as { data: Uint8Array }).data[3];
}

afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe("FlitePool failures", () => {
  it("fails a job whose worker crashes with a retryable TtsError and carries on with a fresh worker", async () => {
    const workers = await start(FAKE);
    const error = await caught(collect(workers.submit(job("crash"), never())));
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(true);
    const next = await collect(workers.submit(job("hello"), never()));
    expect(next.chunks.map((chunk) => [...chunk.data].slice(0, 3))).toEqual([[1, 2, 3]]);
  });

  it("waits for a worker to finish a cancelled sentence of normal length instead of replacing it", async () => {
    const workers = await start(FAKE);
    const first = await workerOf(workers.submit(job("hello"), never()));
    const controller = new AbortController();
    const slow = collect(workers.submit(job("slow:300", { expectedMs: 300 }), controller.signal));
    const waiting = workers.submit(job("hello"), never());
    await Bun.sleep(50);
    controller.abort();
    expect((await slow).chunks).toEqual([]);
    // Same worker: warming up a new one would cost more than the rest of the sentence.
    expect(await workerOf(waiting)).toBe(first);
  });

  it("replaces a worker that does not come back from a long cancelled sentence, so queued work still runs", async () => {
    const workers = await start(FAKE);
    const controller = new AbortController();
    const hung = collect(workers.submit(job("hang", { expectedMs: 20_000 }), controller.signal));
    const waiting = collect(workers.submit(job("hello"), never()));
    await Bun.sleep(50);
    const abortedAt = performance.now();
    controller.abort();
    expect((await hung).chunks).toEqual([]);
    expect((await waiting).chunks.length).toBe(1);
    // The hung worker would have held the slot for 3 s; the grace period is 100 ms.
    expect(performance.now() - abortedAt).toBeLessThan(1500);
  });

  it("counts the deadline from when a worker takes the job, not from when it was queued", async () => {
    const workers = await start(FAKE, { jobTimeoutMs: 700 });
    // Each takes 400 ms of work, within the deadline; the last waits 800 ms in the queue first.
    const results = await Promise.all([1, 2, 3].map(() => caught(collect(workers.submit(job("slow:400"), never())))));
    expect(results).toEqual([null, null, null]);
  });

  it("fails a job stuck past its work deadline with a retryable TtsError and replaces the worker", async () => {
    const workers = await start(FAKE, { jobTimeoutMs: 300 });
    const before = await workerOf(workers.submit(job("hello"), never()));
    const error = await caught(collect(workers.submit(job("hang"), never())));
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(true);
    // The odds that a fresh worker drew the same number are 1 in 256.
    expect(await workerOf(workers.submit(job("hello"), never()))).not.toBe(before);
  });

  it("gives up with a non-retryable TtsError when workers die before they are ready", async () => {
    const workers = await start(BROKEN);
    const pending = caught(collect(workers.submit(job("hello"), never())));
    const error = await caught(workers.ready());
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(false);
    expect(await pending).toBe(error);
    expect(await caught(collect(workers.submit(job("hello"), never())))).toBe(error);
  });
});

describe("FlitePool scheduling", () => {
  /** Blocks the single worker, queues `jobs`, then lets go and returns the order they finished in. */
  async function order(workers: FlitePool, jobs: [string, PoolJob][]): Promise<string[]> {
    const blocker = new AbortController();
    const hung = collect(workers.submit(job("slow:200"), blocker.signal));
    const finished: string[] = [];
    const all = jobs.map(([name, queued]) => collect(workers.submit(queued, never())).then(() => finished.push(name)));
    await hung;
    await Promise.all(all);
    return finished;
  }

  it("serves queued work earliest-due first, whatever the order it arrived in", async () => {
    const workers = await start(FAKE);
    const now = performance.now();
    const finished = await order(workers, [
      ["late", job("a", { due: now + 3000 })],
      ["soon", job("b", { due: now + 100 })],
      ["middle", job("c", { due: now + 1000 })],
      ["unset", job("d")],
    ]);
    // "unset" means when it was queued, which is earlier than every explicit due time here.
    expect(finished).toEqual(["unset", "soon", "middle", "late"]);
  });

  it("starts a long sentence before a short one needed at the same moment", async () => {
    const workers = await start(FAKE);
    const due = performance.now() + 500;
    const finished = await order(workers, [
      ["short", job("a", { due, expectedMs: 20 })],
      ["long", job("b", { due, expectedMs: 300 })],
    ]);
    expect(finished).toEqual(["long", "short"]);
  });

  it("serves a new turn's first sentence before another turn's later sentences, and each turn in order", async () => {
    const workers = await start(FAKE);
    const talking = new TurnTimeline();
    const fresh = new TurnTimeline();
    const now = performance.now();
    const place = (timeline: TurnTimeline, at: number) => ({ timeline, slot: timeline.place(2, at) });
    // The talking turn queued three sentences a moment ago; the fresh turn asks for its first one now.
    const talking0 = place(talking, now - 50);
    const talking1 = place(talking, now - 50);
    const talking2 = place(talking, now - 50);
    const finished = await order(workers, [
      ["talking 2", job("e", { turn: talking2 })],
      ["talking 1", job("f", { turn: talking1 })],
      ["fresh 0", job("g", { turn: place(fresh, now) })],
      ["talking 0", job("h", { turn: talking0 })],
    ]);
    expect(finished).toEqual(["talking 0", "fresh 0", "talking 1", "talking 2"]);
  });

  it("reports how late the queue is (counted from when the engine was ready), and how long each sentence waited", async () => {
    const waits: number[] = [];
    const workers = await start(FAKE, { observer: { queued: (ms) => waits.push(ms) } });
    expect(workers.lagMs()).toBe(0);
    const blocker = collect(workers.submit(job("slow:600"), never()));
    // Needed long before the engine was even ready: it counts as late only from then.
    const late = collect(workers.submit(job("late", { due: performance.now() - 60_000 }), never()));
    await Bun.sleep(400);
    expect(workers.lagMs()).toBeGreaterThanOrEqual(350);
    expect(workers.lagMs()).toBeLessThan(5000);
    await Promise.all([blocker, late]);
    expect(workers.lagMs()).toBe(0);
    expect(waits.length).toBe(2);
    expect(waits[1]).toBeGreaterThanOrEqual(500);
  });

  it("under load, keeps sentences needed later queued until shortly before they must start; alone, starts at once", async () => {
    const workers = await start(FAKE, { leadMs: 1000 });
    // Alone (no more jobs queued than workers), a sentence needed in a minute is made now.
    await collect(workers.submit(job("alone", { due: performance.now() + 60_000 }), never()));
    const blocker = collect(workers.submit(job("slow:200"), never()));
    const later = [1, 2].map((k) => caught(collect(workers.submit(job(`later ${k}`, { due: performance.now() + 60_000 }), never()))));
    const now = collect(workers.submit(job("now"), never()));
    await Promise.all([blocker, now]);
    // Two sentences are queued for one worker: the ones needed in a minute wait, and a new one needed now goes first.
    expect(workers.queued).toBe(2);
    await collect(workers.submit(job("next turn"), never()));
    expect(workers.queued).toBe(2);
    expect(workers.lagMs()).toBe(0);
    await workers.close();
    for (const error of await Promise.all(later)) expect(String(error)).toContain("speech engine is closed");
  });

  it("gives a turn's first sentence a moment before the queue counts as late", async () => {
    const workers = await start(FAKE);
    const blocker = collect(workers.submit(job("slow:600"), never()));
    const timeline = new TurnTimeline();
    const first = collect(workers.submit(job("first", { turn: { timeline, slot: timeline.place(1, performance.now()) } }), never()));
    await Bun.sleep(400);
    expect(workers.lagMs()).toBe(0);
    await Promise.all([blocker, first]);
  });
});

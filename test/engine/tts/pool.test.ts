/**
 * The worker pool's failure handling, with workers that implement the real message protocol but crash or hang
 * on demand (fixtures/fake-worker.ts), so the cases are deterministic.
 */
import { afterEach, describe, expect, it } from "bun:test";
import { fileURLToPath } from "node:url";
import { FlitePool, type PoolJob } from "../../../src/engine/tts/flite/pool.ts";
import { loadFliteModule } from "../../../src/engine/tts/flite/wasm.ts";
import { TtsError } from "../../../src/engine/tts/index.ts";
import { caught, collect, recordingLogger } from "./helpers.ts";

const FAKE = fileURLToPath(new URL("./fixtures/fake-worker.ts", import.meta.url));
const BROKEN = fileURLToPath(new URL("./fixtures/broken-worker.ts", import.meta.url));

let pool: FlitePool | null = null;

async function start(workerPath: string, jobTimeoutMs = 5000): Promise<FlitePool> {
  pool = new FlitePool(loadFliteModule(), { size: 1, workerPath, jobTimeoutMs, cancelGraceMs: 100, logger: recordingLogger() });
  return pool;
}

function job(text: string): PoolJob {
  return { text, voiceId: "slt", profile: {}, format: "pcm16" };
}

afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe("FlitePool failures", () => {
  it("fails a job whose worker crashes with a retryable TtsError and carries on with a fresh worker", async () => {
    const workers = await start(FAKE);
    await workers.ready();
    const error = await caught(collect(workers.submit(job("crash"), new AbortController().signal)));
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(true);
    const next = await collect(workers.submit(job("hello"), new AbortController().signal));
    expect(next.chunks.map((chunk) => [...chunk.data])).toEqual([[1, 2, 3, 4]]);
  });

  it("replaces a worker that ignores a cancel, so queued work still runs", async () => {
    const workers = await start(FAKE);
    await workers.ready();
    const controller = new AbortController();
    const hung = collect(workers.submit(job("hang"), controller.signal));
    const waiting = collect(workers.submit(job("hello"), new AbortController().signal));
    await Bun.sleep(50);
    const abortedAt = performance.now();
    controller.abort();
    expect((await hung).chunks).toEqual([]);
    expect((await waiting).chunks.length).toBe(1);
    // The hung worker would have held the slot for 3 s; the grace period is 100 ms.
    expect(performance.now() - abortedAt).toBeLessThan(1500);
  });

  it("fails a queued job that waits past its deadline", async () => {
    const workers = await start(FAKE, 300);
    await workers.ready();
    const hung = caught(collect(workers.submit(job("hang"), new AbortController().signal)));
    const queued = caught(collect(workers.submit(job("hello"), new AbortController().signal)));
    expect(await queued).toBeInstanceOf(TtsError);
    expect(await hung).toBeInstanceOf(TtsError);
  });

  it("gives up with a non-retryable TtsError when workers die before they are ready", async () => {
    const workers = await start(BROKEN);
    const pending = caught(collect(workers.submit(job("hello"), new AbortController().signal)));
    const error = await caught(workers.ready());
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(false);
    expect(await pending).toBe(error);
    expect(await caught(collect(workers.submit(job("hello"), new AbortController().signal)))).toBe(error);
  });

  it("serves queued work earliest-due first, whatever the order it arrived in", async () => {
    const workers = await start(FAKE);
    await workers.ready();
    const blocker = new AbortController();
    const hung = collect(workers.submit(job("hang"), blocker.signal));
    const finished: string[] = [];
    const now = performance.now();
    const queued = (["late", "soon", "middle", "unset"] as const).map((name) => {
      const due = { late: now + 3000, soon: now + 100, middle: now + 1000, unset: undefined }[name];
      return collect(workers.submit({ ...job(name), due }, new AbortController().signal)).then(() => finished.push(name));
    });
    await Bun.sleep(50);
    blocker.abort();
    await hung;
    await Promise.all(queued);
    // "unset" means now, which is earlier than every explicit due time here.
    expect(finished).toEqual(["unset", "soon", "middle", "late"]);
  });
});

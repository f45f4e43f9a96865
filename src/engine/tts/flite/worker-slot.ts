/**
 * One synthesis worker as the pool sees it: the Bun Worker, the shared word through which the pool asks it to
 * stop a job, and whether it has finished warming up. Busy workers keep the process alive, idle ones do not.
 */
import type { FromWorker, JobMessage, WasmModules } from "./protocol.ts";

export interface SlotEvents {
  message(slot: WorkerSlot, message: FromWorker): void;
  crash(slot: WorkerSlot, reason: string): void;
}

export class WorkerSlot {
  private readonly worker: Worker;
  private readonly cancelWord = new Int32Array(new SharedArrayBuffer(4));
  ready = false;

  constructor(path: string, modules: WasmModules | null, events: SlotEvents) {
    // smol: a worker only runs flite and the encoder, so a small heap is enough.
    this.worker = new Worker(path, { smol: true });
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => {
      if (event.data.type === "ready") this.ready = true;
      events.message(this, event.data);
    };
    this.worker.onerror = (event: ErrorEvent) => events.crash(this, event.message);
    keepAlive(this.worker, false);
    this.worker.postMessage({ type: "init", cancel: this.cancelWord.buffer, modules });
  }

  /** Hands a job to the worker. */
  run(job: JobMessage): void {
    Atomics.store(this.cancelWord, 0, 0);
    keepAlive(this.worker, true);
    this.worker.postMessage(job);
  }

  /** Asks the worker to stop job `id` at its next step. */
  cancel(id: number): void {
    Atomics.store(this.cancelWord, 0, id);
  }

  /** Marks the worker idle, so it no longer keeps the process alive. */
  idle(): void {
    keepAlive(this.worker, false);
  }

  /** Terminates the worker; no event from it reaches the pool afterwards. */
  stop(): void {
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.terminate();
  }
}

function keepAlive(worker: Worker, on: boolean): void {
  // Bun's Worker has ref()/unref(); the DOM Worker type the compiler sees (lib "DOM" is loaded) does not.
  const handle = worker as Worker & Partial<Pick<Bun.Worker, "ref" | "unref">>;
  if (on) handle.ref?.();
  else handle.unref?.();
}

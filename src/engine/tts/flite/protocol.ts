/**
 * Messages between the pool (main thread) and a synthesis worker. Cancellation does not travel as a message:
 * a running job is synchronous in the worker and would not see one until it finished. Instead each worker
 * shares a one-word SharedArrayBuffer in which the pool writes the id of the job to stop; the worker reads it
 * between chunks.
 */
import type { AudioFormat, VoiceProfile } from "../../types.ts";

export interface InitMessage {
  type: "init";
  module: WebAssembly.Module;
  cancel: SharedArrayBuffer;
}

export interface JobMessage {
  type: "job";
  id: number;
  /** Already normalized for flite. */
  text: string;
  voiceId: string;
  profile: VoiceProfile;
  format: AudioFormat;
}

export type ToWorker = InitMessage | JobMessage;

export type FromWorker =
  | { type: "ready" }
  | { type: "chunk"; id: number; data: Uint8Array; mimeType: string; sampleRate: number }
  | { type: "done"; id: number; cancelled: boolean; synthMs: number; totalMs: number; audioMs: number }
  | { type: "failed"; id: number; message: string };

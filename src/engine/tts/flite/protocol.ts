/**
 * Messages between the pool (main thread) and a synthesis worker. Cancellation does not travel as a message:
 * a running job is synchronous in the worker and would not see one until it finished. Instead each worker
 * shares a one-word SharedArrayBuffer in which the pool writes the id of the job to stop; the worker reads it
 * between steps.
 */
import type { AudioFormat, VoiceProfile } from "../../types.ts";
import type { SpeechMarks } from "../../vocabulary.ts";

/** flite and LAME, compiled. A compiled module can be posted between threads without compiling it again. */
export interface WasmModules {
  flite: WebAssembly.Module;
  mp3: WebAssembly.Module;
}

/**
 * `modules`: compiled by an earlier worker of this process, or null: then the worker compiles them itself and
 * sends them back with "ready". The main thread never compiles: flite's 21 MB would block its event loop.
 */
export interface InitMessage {
  type: "init";
  cancel: SharedArrayBuffer;
  modules: WasmModules | null;
}

export interface JobMessage {
  type: "job";
  id: number;
  /** Already normalized for flite. */
  text: string;
  voiceId: string;
  profile: VoiceProfile;
  format: AudioFormat;
  /** The sentence as the turn writes it, when its marks are wanted (flite then prints its segments too). */
  marks?: string;
}

export type ToWorker = InitMessage | JobMessage;

export type FromWorker =
  | { type: "ready"; modules?: WasmModules }
  | { type: "chunk"; id: number; data: Uint8Array; mimeType: string; sampleRate: number; marks?: SpeechMarks }
  /** `synthMs`: flite; `totalMs`: the whole job in the worker; `audioMs`: the audio it made. */
  | { type: "done"; id: number; cancelled: boolean; synthMs: number; totalMs: number; audioMs: number }
  | { type: "failed"; id: number; message: string };

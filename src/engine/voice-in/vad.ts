/**
 * Voice activity detection with libfvad (the WebRTC VAD) compiled to WebAssembly. The .wasm is imported as a
 * file so `bun build --compile` embeds it, and handed to the Emscripten loader as bytes, so nothing is read
 * from disk next to the executable.
 *
 * One WebAssembly instance serves the whole process; each session gets its own small detector state
 * (`fvad_new`, a few hundred bytes) inside it, so ten thousand sessions do not mean ten thousand heaps.
 * JavaScript is single-threaded, so one scratch frame buffer is shared safely.
 */
import createFvad, { type FvadModule } from "@echogarden/fvad-wasm";
import wasmPath from "@echogarden/fvad-wasm/fvad.wasm" with { type: "file" };

/** The detector works on 10 ms frames of 16 kHz audio. */
export const VAD_RATE = 16000;
export const VAD_FRAME_SAMPLES = 160;
export const VAD_FRAME_MS = 10;

interface Shared {
  module: FvadModule;
  frame: number;
}

let shared: Promise<Shared> | null = null;

/** Loads the WebAssembly module once (later calls share it). */
export function loadVad(): Promise<Shared> {
  shared ??= (async () => {
    const bytes = new Uint8Array(await Bun.file(wasmPath).arrayBuffer());
    const module = await createFvad({ wasmBinary: bytes });
    return { module, frame: module._malloc(VAD_FRAME_SAMPLES * 2) };
  })();
  return shared;
}

/** True when the embedded VAD's wasm is where this build expects it (for the compiled-binary check). */
export function vadWasmPath(): string {
  return wasmPath;
}

/** One detector: feed it 10 ms frames, it says which hold speech. */
export class Vad {
  private handle: number;

  private constructor(
    private readonly shared: Shared,
    mode: number,
  ) {
    this.handle = shared.module._fvad_new();
    if (!this.handle) throw new Error("the voice activity detector could not be created");
    shared.module._fvad_set_sample_rate(this.handle, VAD_RATE);
    shared.module._fvad_set_mode(this.handle, mode);
  }

  /**
   * A detector with aggressiveness `mode` (0 = keeps most audio as speech .. 3 = strictest).
   * @example const vad = await Vad.create(3); vad.isSpeech(frame160)
   */
  static async create(mode: number): Promise<Vad> {
    if (!Number.isInteger(mode) || mode < 0 || mode > 3) throw new Error("VAD mode must be 0, 1, 2 or 3");
    return new Vad(await loadVad(), mode);
  }

  /** Classifies one frame of exactly 160 samples (10 ms at 16 kHz). */
  isSpeech(frame: Int16Array): boolean {
    if (!this.handle) throw new Error("the voice activity detector was freed");
    const { module, frame: pointer } = this.shared;
    module.HEAP16.set(frame, pointer >> 1);
    return module._fvad_process(this.handle, pointer, VAD_FRAME_SAMPLES) === 1;
  }

  /** Forgets what it heard (a new utterance). */
  reset(): void {
    if (this.handle) this.shared.module._fvad_reset(this.handle);
  }

  free(): void {
    if (this.handle) this.shared.module._fvad_free(this.handle);
    this.handle = 0;
  }
}

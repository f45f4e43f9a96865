/**
 * Flite's wasm with its stack pointer exported, so one instance can run sentence after sentence.
 *
 * Why: flite is a command-line program whose `_start` runs once per instance, and a fresh instance costs about
 * 8 ms of CPU (16 MB of memory mapped, zeroed and filled) per sentence, a fifth of a short sentence's work. Its
 * whole state is its linear memory plus one mutable global, the C stack pointer (checked: the module has
 * exactly one global). With that global exported, the WASI host (./wasi.ts) puts back the memory as it was
 * after instantiation and the stack pointer, about 1 ms, and runs `_start` again: the same bytes out as a
 * fresh instance (test/engine/tts/reuse.test.ts).
 *
 * Rules: only the export section changes (one entry added); a module that is not what we expect (another
 * number of globals, no export section) is returned unchanged, and the host then instantiates afresh every time.
 */

export const STACK_POINTER_EXPORT = "__stack_pointer";

/**
 * `bytes` with global 0 exported as STACK_POINTER_EXPORT, or `bytes` itself when the module is not one
 * mutable global and an export section.
 * @example const module = await WebAssembly.compile(exportStackPointer(wasmBytes))
 */
export function exportStackPointer(bytes: Uint8Array): Uint8Array {
  const sections = readSections(bytes);
  if (!sections) return bytes;
  const globals = sections.find((s) => s.id === 6);
  const exports = sections.find((s) => s.id === 7);
  const imports = sections.find((s) => s.id === 2);
  if (!globals || !exports || (imports && importsGlobal(bytes, imports.body))) return bytes;
  // One global, i32, mutable: the stack pointer clang's wasm32 targets keep.
  const [count, at] = readLeb(bytes, globals.body);
  if (count !== 1 || bytes[at] !== 0x7f || bytes[at + 1] !== 1) return bytes;
  const [exportCount, entriesAt] = readLeb(bytes, exports.body);
  const name = new TextEncoder().encode(STACK_POINTER_EXPORT);
  const body = [...leb(exportCount + 1), ...bytes.subarray(entriesAt, exports.end), ...leb(name.length), ...name, 3, 0];
  const section = [7, ...leb(body.length), ...body];
  const out = new Uint8Array(bytes.length - (exports.end - exports.start) + section.length);
  out.set(bytes.subarray(0, exports.start));
  out.set(section, exports.start);
  out.set(bytes.subarray(exports.end), exports.start + section.length);
  return out;
}

interface Section {
  id: number;
  /** Where the section starts (its id byte), where its body starts, and where it ends. */
  start: number;
  body: number;
  end: number;
}

function readSections(bytes: Uint8Array): Section[] | null {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) return null;
  const sections: Section[] = [];
  for (let at = 8; at < bytes.length; ) {
    const [size, body] = readLeb(bytes, at + 1);
    const end = body + size;
    if (end > bytes.length) return null;
    sections.push({ id: bytes[at], start: at, body, end });
    at = end;
  }
  return sections;
}

/** True when the import section imports a global (which would shift the global indices). */
function importsGlobal(bytes: Uint8Array, at: number): boolean {
  let [count, p] = readLeb(bytes, at);
  for (; count > 0; count--) {
    for (let name = 0; name < 2; name++) {
      const [length, next] = readLeb(bytes, p);
      p = next + length;
    }
    const kind = bytes[p++];
    if (kind === 3) return true;
    if (kind === 0) p = readLeb(bytes, p)[1];
    else if (kind === 1) p = skipLimits(bytes, p + 1);
    else if (kind === 2) p = skipLimits(bytes, p);
    else return true; // unknown: do not touch the module
  }
  return false;
}

function skipLimits(bytes: Uint8Array, at: number): number {
  const flags = bytes[at];
  let p = readLeb(bytes, at + 1)[1];
  if (flags & 1) p = readLeb(bytes, p)[1];
  return p;
}

/** An unsigned LEB128 number at `at`: [value, index after it]. */
function readLeb(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  let p = at;
  while (true) {
    const byte = bytes[p++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (!(byte & 0x80)) return [value, p];
  }
}

function leb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
    if (rest) byte |= 0x80;
    out.push(byte);
  } while (rest);
  return out;
}

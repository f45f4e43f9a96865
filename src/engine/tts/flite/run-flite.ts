/**
 * One flite run: a fresh instance of the compiled module per sentence (flite is a command-line program whose
 * `_start` can run only once per instance), argv in, WAV out through the in-memory WASI host.
 */
import type { VoiceProfile } from "../../types.ts";
import { type Pcm, parseWav } from "../audio/wav.ts";
import { parseSegments, SEGMENT_OPTION, type Segment } from "../marks/flite-marks.ts";
import { type FliteVoice, fliteOptions } from "./voices.ts";
import { MemoryWasi } from "./wasi.ts";

const OUTPUT_FILE = "speech.wav";

/**
 * Synthesizes `text` (already normalized) with `voice`; throws when flite fails. With `segments`, also returns
 * flite's segments (phones with end times, from its Segment relation). `host` is a MemoryWasi already
 * instantiated with the module (see prepareFlite), to keep instantiation off the path of a waiting child.
 * @example const { samples, sampleRate } = await runFlite(module, "Hello there!", DEFAULT_FLITE_VOICE, {})
 */
export async function runFlite(
  module: WebAssembly.Module,
  text: string,
  voice: FliteVoice,
  profile: VoiceProfile,
  host?: MemoryWasi,
  segments = false,
): Promise<Pcm & { segments?: Segment[] }> {
  const wasi = host ?? (await prepareFlite(module));
  const print = segments ? [SEGMENT_OPTION] : [];
  // "-t" marks the text as text, so a sentence that happens to name a file is still spoken, never read.
  const code = wasi.start(["flite", ...fliteOptions(voice, profile), ...print, "-t", text, "-o", OUTPUT_FILE]);
  // The error names the exit code only: flite's messages may quote the child's text.
  if (code !== 0) throw new Error(`flite exited with code ${code}`);
  const wav = wasi.file(OUTPUT_FILE);
  const pcm = wav ? parseWav(wav) : null;
  if (!pcm) throw new Error("flite wrote no usable WAV output");
  return segments ? { ...pcm, segments: parseSegments(new TextDecoder().decode(wasi.stdout.contents())) } : pcm;
}

/**
 * A fresh flite instance, ready for one runFlite (flite's `_start` runs once per instance).
 * @example const next = prepareFlite(module); ...; await runFlite(module, text, voice, {}, await next)
 */
export async function prepareFlite(module: WebAssembly.Module): Promise<MemoryWasi> {
  const wasi = new MemoryWasi();
  await wasi.instantiate(module);
  return wasi;
}

/**
 * One flite run: a fresh instance of the shared compiled module per sentence (flite is a command-line program
 * whose `_start` can run only once per instance), argv in, WAV out through the in-memory WASI host.
 */
import type { VoiceProfile } from "../../types.ts";
import { type Pcm, parseWav } from "../audio/wav.ts";
import { type FliteVoice, fliteOptions } from "./voices.ts";
import { MemoryWasi } from "./wasi.ts";

const OUTPUT_FILE = "speech.wav";

/**
 * Synthesizes `text` (already normalized) with `voice`; throws when flite fails.
 * @example const { samples, sampleRate } = await runFlite(module, "Hello there!", DEFAULT_FLITE_VOICE, {})
 */
export async function runFlite(module: WebAssembly.Module, text: string, voice: FliteVoice, profile: VoiceProfile): Promise<Pcm> {
  // "-t" marks the text as text, so a sentence that happens to name a file is still spoken, never read.
  const wasi = new MemoryWasi(["flite", ...fliteOptions(voice, profile), "-t", text, "-o", OUTPUT_FILE]);
  const code = await wasi.run(module);
  // The error names the exit code only: flite's messages may quote the child's text.
  if (code !== 0) throw new Error(`flite exited with code ${code}`);
  const wav = wasi.file(OUTPUT_FILE);
  const pcm = wav ? parseWav(wav) : null;
  if (!pcm) throw new Error("flite wrote no usable WAV output");
  return pcm;
}

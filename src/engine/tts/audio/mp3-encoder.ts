/**
 * MP3 encoding with LAME compiled to WebAssembly (`wasm-media-encoders`): MPEG-1 Layer III, 44.1 kHz, mono, VBR
 * (LAME's quality 6: about 45 kbps on speech), no CRC (every frame starts `FF FB`), no ID3 tag, no Xing/LAME tag.
 *
 * Why these settings: the Unity SDK finds frames by `FF FB` and plays what it decodes at a fixed 44,100 Hz, so
 * the output rate must be 44.1 kHz whatever the voice's own rate. The samples (16 kHz flite, 24 kHz OpenAI PCM)
 * are resampled to 44.1 kHz here (./resample.ts) and LAME is given 44.1 kHz: its own resampler cost about a
 * quarter of its time, ours costs a third of that, and neither adds delay. VBR rather than 48 kbps CBR: LAME's VBR
 * search costs about 40% less than its CBR loop, and on flite's speech it is closer to the input (about 30 dB
 * against 25 dB signal-to-noise) in fewer bytes (about 45 kbps); frames vary in size, each still says its own
 * (the Unity SDK reads each frame's size from its header). The decoded delay is the same (MP3_DELAY_SAMPLES).
 *
 * Why one whole stream per sentence: this LAME build keeps the bit reservoir on (it has no switch for it), so a
 * frame may carry bits of the frames after it and cannot be decoded without the ones before. A fresh stream
 * starts with an empty reservoir, so a sentence's stream, sent as one `audio` message, decodes on its own. The
 * sentence is still encoded step by step, so a cancelled sentence stops early and a long one never holds a
 * thread for long.
 */
import { createEncoder, type WasmMediaEncoder } from "wasm-media-encoders";
import wasmPath from "wasm-media-encoders/wasm/mp3" with { type: "file" };
import { compileOnce } from "../wasm-module.ts";
import { Resampler } from "./resample.ts";

export const MP3_SAMPLE_RATE = 44100;
/** LAME's VBR quality (0 best .. 9 smallest). */
export const MP3_VBR_QUALITY = 6;
/** Input samples fed to LAME per step (about 0.5 s at 16 kHz), so cancellation is noticed quickly. */
const STEP_SAMPLES = 8192;

/**
 * Compiles LAME's wasm once per thread and returns the same module afterwards (it can be posted to workers).
 * @example const module = await loadMp3Module()
 */
export const loadMp3Module = compileOnce(wasmPath);

/** One LAME instance, reused sentence after sentence (each sentence is configured afresh: a new stream). */
export class Mp3Encoder {
  private constructor(private readonly lame: WasmMediaEncoder<"audio/mpeg">) {}

  /**
   * An encoder on `module` (from loadMp3Module, possibly posted from another thread).
   * @example const encoder = await Mp3Encoder.create(await loadMp3Module())
   */
  static async create(module?: WebAssembly.Module): Promise<Mp3Encoder> {
    return new Mp3Encoder(await createEncoder("audio/mpeg", module ?? (await loadMp3Module())));
  }

  /**
   * Starts a new stream for mono samples at `inputRate`; returns a writer that encodes them as they come.
   * @example const stream = encoder.start(16000); stream.write(samples); const mp3 = stream.end()
   */
  start(inputRate: number): Mp3Stream {
    this.lame.configure({ channels: 1, sampleRate: MP3_SAMPLE_RATE, vbrQuality: MP3_VBR_QUALITY, outputSampleRate: MP3_SAMPLE_RATE });
    return new Mp3Stream(this.lame, inputRate === MP3_SAMPLE_RATE ? null : new Resampler(inputRate, MP3_SAMPLE_RATE));
  }

  /**
   * Encodes one sentence of 16-bit mono samples into one MP3 stream of whole frames; null if `cancelled()`
   * answered true between steps.
   * @example encoder.encode(pcm.samples, 16000, () => false)
   */
  encode(samples: Int16Array, inputRate: number, cancelled: () => boolean): Uint8Array | null {
    const stream = this.start(inputRate);
    for (let start = 0; start < samples.length; start += STEP_SAMPLES) {
      if (cancelled()) return null;
      stream.write(samples.subarray(start, start + STEP_SAMPLES));
    }
    return cancelled() ? null : stream.end();
  }
}

/** One MP3 stream being written: 16-bit samples in, the whole stream's bytes out at the end. */
export class Mp3Stream {
  private parts: Uint8Array[] = [];
  private bytes = 0;

  constructor(
    private readonly lame: WasmMediaEncoder<"audio/mpeg">,
    /** From the input's rate to 44.1 kHz; null when the input is at 44.1 kHz already. */
    private readonly resampler: Resampler | null,
  ) {}

  /** Encodes `samples` (16-bit, mono); the frames are kept until end(). */
  write(samples: Int16Array): void {
    if (samples.length === 0) return;
    this.encode(this.resampler ? this.resampler.write(samples) : toFloats(samples));
  }

  /** Flushes the encoder and returns the whole stream: whole frames only. */
  end(): Uint8Array {
    if (this.resampler) this.encode(this.resampler.end());
    this.keep(this.lame.finalize());
    const out = new Uint8Array(this.bytes);
    let offset = 0;
    for (const part of this.parts) {
      out.set(part, offset);
      offset += part.length;
    }
    this.parts = [];
    this.bytes = 0;
    return out;
  }

  private encode(floats: Float32Array): void {
    if (floats.length > 0) this.keep(this.lame.encode([floats]));
  }

  // The encoder hands back a view of its own memory, overwritten by the next call: copy it.
  private keep(view: Uint8Array): void {
    if (view.length === 0) return;
    this.parts.push(view.slice());
    this.bytes += view.length;
  }
}

function toFloats(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i] / 32768;
  return out;
}

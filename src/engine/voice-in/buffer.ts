/**
 * One session's voice buffer: what `add_audio` appends to, `check_turn` looks at, `transcribe` reads and an
 * empty-text `interact` takes.
 *
 * Data model: the decoded audio of everything accepted since the last clear, as 16 kHz mono 16-bit samples
 * in memory (at most `maxSeconds`, about 1.9 MB for 60 s), plus the decoder of the stream being received and
 * a turn detector that has classified every sample. Nothing is written to disk; clear() and close() drop the
 * samples at once.
 *
 * Rules it keeps:
 * - a chunk is either accepted whole or refused whole (`invalid_audio`, `audio_buffer_full`, `rate_limited`),
 *   and a refused chunk changes nothing that is buffered;
 * - chunks may be cut anywhere: bytes too few to tell their format that could begin a signature (Chromium's
 *   first chunk is the single byte 0x1A) are held, within `maxBytes`, and read with the next chunk;
 * - a chunk refused as `invalid_audio` is answered once: the signature-less chunks after it (the rest of the
 *   same utterance) are dropped without a refusal each, until a chunk starts a new stream or clear() runs,
 *   so one bad header does not turn a whole utterance into refusals that close the socket;
 * - the container is recognised from the bytes (see ./sniff.ts); the label only marks raw PCM;
 * - a chunk that begins a stream (RIFF, EBML, an Ogg BOS page, ID3) ends the previous stream; a chunk with no
 *   signature continues the current container stream; failing that it is raw PCM if labelled so (a change of
 *   `sampling_rate` starts a new PCM stream), else it is refused;
 * - `maxBytes` counts the encoded bytes received since the last clear, `maxSeconds` the decoded audio;
 *   once either is reached every add is refused until clear();
 * - calls are applied in the order they were made, even though decoding is asynchronous.
 */
import type { AudioBudget } from "./budget.ts";
import { Mp3Stream, OggStream, PcmStream, type StreamDecoder, type StreamFormat, WavStream, WebmStream } from "./decoders.ts";
import { AudioBufferFull, AudioRateLimited, InvalidAudio, VoiceInputError } from "./errors.ts";
import { encodeWav } from "./pcm.ts";
import { TARGET_RATE, toInt16 } from "./resample.ts";
import { type Container, isPcmLabel, mayBeginSignature, sniff } from "./sniff.ts";
import { TurnDetector, type TurnState } from "./turn.ts";
import { Vad } from "./vad.ts";

export interface VoiceBufferSettings {
  /** Most decoded audio kept, seconds. */
  maxSeconds: number;
  /** Most encoded bytes accepted between two clears. */
  maxBytes: number;
  /** Unvoiced audio after speech that ends the turn, ms (HOOT_VAD_SILENCE_MS). */
  silenceMs: number;
  /** WebRTC VAD aggressiveness 0..3 (HOOT_VAD_MODE). */
  vadMode: number;
}

/** `add_audio`'s `config`, as the SDKs send it (every field optional, null meaning absent). */
export interface AudioChunkConfig {
  mime_type?: string | null;
  sampling_rate?: number | null;
}

export interface AddResult {
  format: StreamFormat;
  /** Audio this chunk added, ms (0 for a header-only chunk, a chunk held until its format shows, or one dropped). */
  addedMs: number;
  /** The chunk was dropped: it continues an utterance whose start was refused. */
  dropped?: boolean;
  /** Audio now buffered, ms. */
  bufferedMs: number;
  /** Speech began inside this chunk (the cue for barge-in). */
  speechStarted: boolean;
  turn: TurnState;
}

/** Raw PCM with no `sampling_rate` is taken to be at the recogniser's rate. */
export const DEFAULT_PCM_RATE = TARGET_RATE;

export class VoiceBuffer {
  private chunks: Int16Array[] = [];
  private samples = 0;
  private bytes = 0;
  private full = false;
  private stream: StreamDecoder | null = null;
  private streamContainer: Container | "pcm" | null = null;
  private pcmRate = 0;
  /** Bytes held until their format can be told (a chunk cut before the end of its signature). */
  private pending: Uint8Array | null = null;
  /** A chunk was refused as invalid_audio: what continues it is dropped, not refused again. */
  private refused = false;
  private generation = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly settings: VoiceBufferSettings,
    private readonly vad: Vad,
    private readonly turnDetector: TurnDetector,
  ) {}

  /**
   * A buffer with its own voice activity detector.
   * @example const voice = await VoiceBuffer.create(voiceSettings(config))
   */
  static async create(settings: VoiceBufferSettings): Promise<VoiceBuffer> {
    const vad = await Vad.create(settings.vadMode);
    return new VoiceBuffer(settings, vad, new TurnDetector(vad, settings.silenceMs));
  }

  /** Decoded audio held, ms. */
  get durationMs(): number {
    return (this.samples * 1000) / TARGET_RATE;
  }

  /** Encoded bytes received since the last clear. */
  get receivedBytes(): number {
    return this.bytes;
  }

  /**
   * Decodes and appends one chunk. Throws InvalidAudio, AudioBufferFull, or AudioRateLimited when `budget`
   * cannot pay for the chunk's duration.
   * @example await voice.add(Buffer.from(msg.audio, "base64"), msg.config, socketBudget)
   */
  add(bytes: Uint8Array, config?: AudioChunkConfig | null, budget?: AudioBudget): Promise<AddResult> {
    // The generation is taken now, so a clear() made after this call drops this chunk even if it has not been
    // decoded yet.
    const generation = this.generation;
    const run = this.queue.then(() => this.addNow(bytes, config ?? {}, generation, budget));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Resolves once every add already made has been applied. */
  async settled(): Promise<void> {
    await this.queue;
  }

  /** The turn as the audio received so far says it is (what `check_turn` answers). */
  turn(): TurnState {
    return this.turnDetector.state();
  }

  /**
   * All buffered audio as a 16 kHz mono 16-bit WAV, without consuming it (`transcribe`); null when empty.
   * Waits for adds already made.
   */
  async wav(): Promise<Uint8Array | null> {
    await this.queue;
    return this.samples === 0 ? null : encodeWav(this.joined(), TARGET_RATE);
  }

  /** The same WAV, and the buffer is cleared (an empty-text `interact`). */
  async take(): Promise<Uint8Array | null> {
    await this.queue;
    const wav = this.samples === 0 ? null : encodeWav(this.joined(), TARGET_RATE);
    this.clear();
    return wav;
  }

  /** Drops every sample and the stream being received (`clear_audio`, interrupt). Adds already made are dropped too. */
  clear(): void {
    this.generation++;
    this.chunks = [];
    this.samples = 0;
    this.bytes = 0;
    this.full = false;
    this.pending = null;
    this.refused = false;
    this.endStream();
    this.turnDetector.reset();
  }

  /** Drops everything and frees the decoders and the detector (socket closed). */
  close(): void {
    if (this.closed) return;
    this.clear();
    this.closed = true;
    void this.queue.then(() => this.vad.free()).catch(() => {});
  }

  private async addNow(bytes: Uint8Array, config: AudioChunkConfig, generation: number, budget?: AudioBudget): Promise<AddResult> {
    if (this.closed) throw new InvalidAudio("the session is closed");
    if (generation !== this.generation) return this.result(this.stream?.format ?? "pcm", 0, false);
    if (bytes.length === 0) throw new InvalidAudio("the chunk is empty");
    if (this.full || this.bytes + bytes.length > this.settings.maxBytes) {
      this.full = true;
      throw new AudioBufferFull(this.settings.maxSeconds, this.settings.maxBytes);
    }
    // Held bytes are read with this chunk, as if the client had sent them together.
    const held = this.pending;
    const chunk = held ? concat(held, bytes) : bytes;
    let choice: StreamDecoder | "hold" | "drop";
    try {
      choice = this.streamFor(chunk, config);
    } catch (error) {
      this.pending = null;
      if (error instanceof InvalidAudio) this.refused = true;
      throw error;
    }
    if (choice === "hold" || choice === "drop") {
      this.pending = choice === "hold" ? chunk : null;
      this.bytes += bytes.length;
      return { ...this.result(this.stream?.format ?? "pcm", 0, false), ...(choice === "drop" ? { dropped: true } : {}) };
    }
    this.pending = null;
    const stream = choice;
    let decoded: Float32Array;
    try {
      decoded = await stream.decode(chunk);
    } catch (error) {
      // A stream that failed once cannot be trusted to continue: the next chunk must start a new one.
      if (this.stream === stream) this.endStream();
      this.refused = true;
      if (error instanceof VoiceInputError) throw error;
      throw new InvalidAudio("the audio stream does not decode");
    }
    if (generation !== this.generation) {
      // clear() ran while this chunk was decoding: the chunk belongs to the audio that was dropped.
      return this.result(stream.format, 0, false);
    }
    const added = toInt16(decoded);
    if (this.samples + added.length > this.settings.maxSeconds * TARGET_RATE) {
      this.full = true;
      throw new AudioBufferFull(this.settings.maxSeconds, this.settings.maxBytes);
    }
    if (budget) {
      const decision = budget.spend(added.length / TARGET_RATE);
      if (!decision.ok) throw new AudioRateLimited(decision.retryAfterMs);
    }
    this.bytes += bytes.length;
    if (added.length > 0) {
      this.chunks.push(added);
      this.samples += added.length;
    }
    const speechStarted = this.turnDetector.push(added);
    return this.result(stream.format, added.length, speechStarted);
  }

  private result(format: StreamFormat | "ogg", addedSamples: number, speechStarted: boolean): AddResult {
    return {
      format: format === "ogg" ? "ogg/vorbis" : format,
      addedMs: (addedSamples * 1000) / TARGET_RATE,
      bufferedMs: this.durationMs,
      speechStarted,
      turn: this.turnDetector.state(),
    };
  }

  /**
   * The decoder this chunk belongs to: the current stream's, or a new one when the chunk starts a stream;
   * "hold" when its format cannot be told yet, "drop" when it continues an utterance whose start was refused.
   */
  private streamFor(bytes: Uint8Array, config: AudioChunkConfig): StreamDecoder | "hold" | "drop" {
    const pcmLabelled = isPcmLabel(config.mime_type);
    if (this.stream === null && !pcmLabelled && mayBeginSignature(bytes)) return "hold";
    const found = sniff(bytes, pcmLabelled);
    if (found) {
      const continues = !found.startsStream && this.stream !== null && this.streamContainer === found.container;
      if (continues) return this.stream!;
      if (found.container === "ogg" && !found.startsStream) {
        if (this.refused && this.stream === null) return "drop";
        throw new InvalidAudio("an Ogg page arrived without the first page of its stream");
      }
      this.refused = false;
      return this.startStream(found.container, newDecoder(found.container));
    }
    // Bytes with no signature continue a container stream (WebM clusters, a WAV's samples) whatever the
    // label says: the label is only trusted to mark raw PCM.
    if (this.stream && this.streamContainer !== "pcm") return this.stream;
    if (this.refused && this.stream === null && !pcmLabelled) return "drop";
    if (pcmLabelled) {
      const rate = pcmRate(config.sampling_rate);
      if (this.stream && this.streamContainer === "pcm" && this.pcmRate === rate) return this.stream;
      this.pcmRate = rate;
      return this.startStream("pcm", new PcmStream(rate));
    }
    throw new InvalidAudio(
      "the bytes are no supported format (WAV, Ogg Vorbis or Opus, WebM Opus, MP3, or 16-bit PCM with mime_type audio/pcm and sampling_rate)",
    );
  }

  private startStream(container: Container | "pcm", decoder: StreamDecoder): StreamDecoder {
    this.endStream();
    this.stream = decoder;
    this.streamContainer = container;
    return decoder;
  }

  private endStream(): void {
    const old = this.stream;
    this.stream = null;
    this.streamContainer = null;
    // Freed once the queue is idle, never under a decode still awaiting its codec.
    if (old) void this.queue.then(() => old.free()).catch(() => {});
  }

  private joined(): Int16Array {
    if (this.chunks.length !== 1) {
      const all = new Int16Array(this.samples);
      let at = 0;
      for (const chunk of this.chunks) {
        all.set(chunk, at);
        at += chunk.length;
      }
      this.chunks = [all];
    }
    return this.chunks[0];
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function newDecoder(container: Container): StreamDecoder {
  switch (container) {
    case "wav":
      return new WavStream();
    case "ogg":
      return new OggStream();
    case "webm":
      return new WebmStream();
    case "mp3":
      return new Mp3Stream();
  }
}

function pcmRate(rate: number | null | undefined): number {
  if (rate === null || rate === undefined || rate === 0) return DEFAULT_PCM_RATE;
  if (!Number.isInteger(rate) || rate < 4000 || rate > 192000) throw new InvalidAudio(`sampling_rate ${rate} is not a rate from 4000 to 192000 Hz`);
  return rate;
}

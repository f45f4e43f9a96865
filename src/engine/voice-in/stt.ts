/**
 * Speech recognition providers. Each receives the buffered speech as a 16 kHz mono 16-bit WAV held in memory
 * and answers the text, or throws a VoiceInputError (`stt_unavailable` when there is no recogniser or it
 * cannot be reached, `stt_failed` when it answered with an error).
 *
 * - `openai`: any OpenAI-compatible `POST {base}/audio/transcriptions` (whisper.cpp's server, faster-whisper
 *   servers, hosted APIs): multipart form with `file` (audio.wav, audio/wav), `model`, `language`,
 *   `response_format=json`; the answer's `text` is the transcript.
 * - `pocketsphinx`: Debian's CMU PocketSphinx (`apt-get install pocketsphinx pocketsphinx-en-us`), run per
 *   request with the WAV as its standard input (`-infile /dev/stdin`, an in-memory file), never on disk.
 *   English only; its word error rate on synthesised children's sentences is in the README.
 * - `none`: every request fails with `stt_unavailable`, saying how to configure one.
 * The audio and the transcript are never logged: only byte counts, durations and timings.
 */
import { cpus } from "node:os";
import { SttFailed, SttUnavailable } from "./errors.ts";

export interface TranscriptionRequest {
  /** 16 kHz mono 16-bit WAV. */
  wav: Uint8Array;
  /** BCP 47 (`en`, `en-US`, `fi`); providers take the primary language. */
  languageCode: string;
  signal?: AbortSignal;
}

export interface SttProvider {
  readonly name: string;
  /** Transcribes one utterance. Throws VoiceInputError. */
  transcribe(request: TranscriptionRequest): Promise<{ text: string }>;
}

type LogFn = (fields: Record<string, unknown>, message: string) => void;
export interface SttLogger {
  info: LogFn;
  warn: LogFn;
}
const quiet: SttLogger = { info: () => {}, warn: () => {} };

/** The recogniser settings (the HOOT_STT_* fields of the app's Config, which fits this shape as it is). */
export interface SttConfig {
  sttProvider: "auto" | "openai" | "pocketsphinx" | "none";
  sttBaseUrl: string;
  sttApiKey: string;
  sttModel: string;
  sttTimeoutMs: number;
}

/** The primary language subtag, lowercased (`en-US` -> `en`), or undefined to let the recogniser detect it. */
export function primaryLanguage(code: string): string | undefined {
  const primary = code.trim().split(/[-_]/)[0]?.toLowerCase();
  return primary && /^[a-z]{2,3}$/.test(primary) ? primary : undefined;
}

export class OpenAiTranscriptionProvider implements SttProvider {
  readonly name = "openai";

  constructor(
    private readonly config: Pick<SttConfig, "sttBaseUrl" | "sttApiKey" | "sttModel" | "sttTimeoutMs">,
    private readonly logger: SttLogger = quiet,
  ) {}

  async transcribe(request: TranscriptionRequest): Promise<{ text: string }> {
    const form = new FormData();
    form.append("file", new Blob([request.wav.slice()], { type: "audio/wav" }), "audio.wav");
    form.append("model", this.config.sttModel);
    const language = primaryLanguage(request.languageCode);
    if (language) form.append("language", language);
    form.append("response_format", "json");
    const signals = [AbortSignal.timeout(this.config.sttTimeoutMs)];
    if (request.signal) signals.push(request.signal);
    const headers: Record<string, string> = {};
    if (this.config.sttApiKey) headers.authorization = `Bearer ${this.config.sttApiKey}`;
    const url = `${this.config.sttBaseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
    const started = performance.now();
    let response: Response;
    try {
      response = await fetch(url, { method: "POST", body: form, headers, signal: AbortSignal.any(signals) });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      this.logger.warn({ reason: timedOut ? "timeout" : "unreachable", wavBytes: request.wav.length }, "transcription service failed");
      throw new SttUnavailable(timedOut ? "the transcription service did not answer in time" : "the transcription service cannot be reached");
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      this.logger.warn({ status: response.status, wavBytes: request.wav.length }, "transcription service refused the request");
      if (response.status === 401 || response.status === 403)
        throw new SttUnavailable(`the transcription service refused the credentials (HTTP ${response.status})`);
      throw new SttFailed(`the transcription service answered HTTP ${response.status}`, response.status === 429 || response.status >= 500);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new SttFailed("the transcription service answered something that is not JSON", false);
    }
    const text = typeof body === "object" && body !== null && "text" in body ? (body as { text: unknown }).text : undefined;
    if (typeof text !== "string") throw new SttFailed("the transcription service's answer has no text", false);
    this.logger.info({ wavBytes: request.wav.length, chars: text.length, ms: Math.round(performance.now() - started) }, "transcribed");
    return { text: text.trim() };
  }
}

/** Where Debian's pocketsphinx package puts its program and its US English model. */
export const POCKETSPHINX_COMMAND = "pocketsphinx_continuous";

export class PocketsphinxProvider implements SttProvider {
  readonly name = "pocketsphinx";
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly command: string,
    private readonly timeoutMs: number,
    /** Recognisers run at once; each loads the model (~1 s of CPU), so more than the cores only queues. */
    private readonly concurrency = Math.max(1, cpus().length),
    private readonly logger: SttLogger = quiet,
  ) {}

  /** The program's path when pocketsphinx is installed, else null. */
  static find(): string | null {
    return Bun.which(POCKETSPHINX_COMMAND);
  }

  async transcribe(request: TranscriptionRequest): Promise<{ text: string }> {
    const language = primaryLanguage(request.languageCode);
    if (language && language !== "en") throw new SttUnavailable(`the offline recogniser knows only English, not "${request.languageCode}"`);
    await this.slot();
    const started = performance.now();
    try {
      // Given bytes, Bun hands the child an anonymous in-memory file (memfd) as its standard input: pocketsphinx
      // can open /dev/stdin like a file (it cannot open the socket a "pipe" would be), and nothing is on disk.
      const child = Bun.spawn([this.command, "-infile", "/dev/stdin", "-logfn", "/dev/null"], { stdin: request.wav, stdout: "pipe", stderr: "ignore" });
      const kill = () => child.kill();
      const timer = setTimeout(kill, this.timeoutMs);
      request.signal?.addEventListener("abort", kill, { once: true });
      try {
        const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
        if (request.signal?.aborted) throw new SttFailed("the transcription was cancelled", false);
        if (child.signalCode) throw new SttUnavailable("the offline recogniser did not finish in time");
        if (code !== 0) throw new SttFailed(`the offline recogniser exited with ${code}`, false);
        const text = out
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean)
          .join(" ");
        this.logger.info({ wavBytes: request.wav.length, chars: text.length, ms: Math.round(performance.now() - started) }, "transcribed");
        return { text };
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener("abort", kill);
      }
    } catch (error) {
      if (error instanceof SttFailed || error instanceof SttUnavailable) throw error;
      this.logger.warn({ reason: error instanceof Error ? error.name : "unknown" }, "offline recogniser failed to start");
      throw new SttUnavailable("the offline recogniser could not be started");
    } finally {
      this.release();
    }
  }

  private async slot(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

export class NoSttProvider implements SttProvider {
  readonly name = "none";

  constructor(private readonly reason?: string) {}

  async transcribe(): Promise<{ text: string }> {
    throw new SttUnavailable(this.reason);
  }
}

/**
 * The recogniser the settings ask for. `auto` (the default) picks `openai` when HOOT_STT_BASE_URL is set,
 * else `pocketsphinx` when Debian's package is installed, else none.
 * @example const stt = createSttProvider(config, logger.child({ module: "stt" }))
 */
export function createSttProvider(config: SttConfig, logger: SttLogger = quiet): SttProvider {
  const choice = config.sttProvider === "auto" ? (config.sttBaseUrl ? "openai" : PocketsphinxProvider.find() ? "pocketsphinx" : "none") : config.sttProvider;
  if (choice === "openai") {
    if (!config.sttBaseUrl) return new NoSttProvider("HOOT_STT_PROVIDER is openai but HOOT_STT_BASE_URL is not set");
    return new OpenAiTranscriptionProvider(config, logger);
  }
  if (choice === "pocketsphinx") {
    const command = PocketsphinxProvider.find();
    if (!command) return new NoSttProvider("HOOT_STT_PROVIDER is pocketsphinx but it is not installed (apt-get install pocketsphinx pocketsphinx-en-us)");
    return new PocketsphinxProvider(command, config.sttTimeoutMs, undefined, logger);
  }
  return new NoSttProvider();
}

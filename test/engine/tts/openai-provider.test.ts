/**
 * The OpenAI-compatible provider against a real HTTP server on loopback that speaks the /audio/speech protocol:
 * JSON in, a streamed audio body out (or an error status, a refused connection, a stall).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { OpenAiSpeechProvider, type SpeechRequest, TtsError } from "../../../src/engine/tts/index.ts";
import { caught, collect, decodeMp3, expectUnityFrames, join, mainDataBegins, recordingLogger, rms } from "./helpers.ts";

interface Received {
  method: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  body: Record<string, unknown>;
}

type Behaviour = (request: Request) => Response | Promise<Response>;

let server: ReturnType<typeof Bun.serve>;
let behaviour: Behaviour;
let received: Received[] = [];
const stalls: (() => void)[] = [];

/** `seconds` of a 330 Hz tone as OpenAI's `pcm` format: 24 kHz, 16-bit little-endian, mono. */
function servicePcm(seconds = 2): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(Math.round(24000 * seconds) * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < bytes.length / 2; i++) view.setInt16(i * 2, Math.round(9000 * Math.sin((2 * Math.PI * 330 * i) / 24000)), true);
  return bytes;
}

/** A body sent in odd-sized pieces with small pauses, so frames arrive split across network reads. */
function trickle(bytes: Uint8Array, piece: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + piece));
      offset += piece;
      await Bun.sleep(1);
    },
  });
}

/** A service that sends the first `bytes` of a second of PCM, then nothing until the test ends. */
function stallAfter(bytes: number): Behaviour {
  const audio = servicePcm(1);
  return () =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(audio.slice(0, bytes));
          stalls.push(() => controller.close());
        },
      }),
    );
}

function provider(settings: { timeoutMs?: number; baseUrl?: string; maxTurns?: number } = {}, logger = recordingLogger()): OpenAiSpeechProvider {
  return new OpenAiSpeechProvider({
    baseUrl: settings.baseUrl ?? `http://127.0.0.1:${server.port}/v1`,
    apiKey: "sk-test-123",
    model: "tts-1",
    timeoutMs: settings.timeoutMs ?? 2000,
    maxTurns: settings.maxTurns,
    logger,
  });
}

function request(extra: Partial<SpeechRequest> = {}): SpeechRequest {
  return { text: "Hello there, little friend!", voice: {}, format: "mp3", signal: new AbortController().signal, ...extra };
}

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 30,
    async fetch(req) {
      const url = new URL(req.url);
      received.push({
        method: req.method,
        path: url.pathname,
        authorization: req.headers.get("authorization"),
        contentType: req.headers.get("content-type"),
        body: (await req.json()) as Record<string, unknown>,
      });
      return behaviour(req);
    },
  });
});

afterAll(() => {
  for (const release of stalls) {
    try {
      release();
    } catch {
      // that stream was already closed by the client going away
    }
  }
  server.stop(true);
});

beforeEach(() => {
  received = [];
});

describe("OpenAI speech provider", () => {
  it("asks for PCM and encodes it into one 44.1 kHz MPEG-1 stream per sentence, whatever the service's own MP3", async () => {
    const pcm = servicePcm(2);
    behaviour = () => new Response(trickle(pcm, 777), { headers: { "content-type": "audio/pcm" } });
    const { chunks } = await collect(provider().synthesize(request({ voice: { voice_id: "nova", speed: 0.9 } })));

    expect(received).toEqual([
      {
        method: "POST",
        path: "/v1/audio/speech",
        authorization: "Bearer sk-test-123",
        contentType: "application/json",
        body: { model: "tts-1", input: "Hello there, little friend!", voice: "nova", response_format: "pcm", speed: 0.9 },
      },
    ]);
    expect(chunks.length).toBe(1);
    const [chunk] = chunks;
    expect(chunk.mimeType).toBe("audio/mpeg");
    expect(chunk.sampleRate).toBe(44100);
    const frames = expectUnityFrames(chunk.data);
    expect(mainDataBegins(chunk.data)[0]).toBe(0);
    const decoded = await decodeMp3(chunk.data);
    expect(decoded.errors).toBe(0);
    expect(decoded.samples.length).toBe(frames * 1152);
    // Two seconds in, two seconds out (plus the encoder's delay and padding), and still the tone.
    expect(decoded.samples.length / 44100).toBeGreaterThan(2);
    expect(decoded.samples.length / 44100).toBeLessThan(2.15);
    expect(rms(decoded.samples)).toBeGreaterThan(0.15);
  });

  it("asks for pcm and cuts the 24 kHz body into even 200 ms chunks", async () => {
    const pcm = new Uint8Array(24000 * 2 + 1001);
    for (let i = 0; i < pcm.length; i++) pcm[i] = i % 251;
    behaviour = () => new Response(trickle(pcm, 1001), { headers: { "content-type": "audio/pcm" } });
    const { chunks } = await collect(provider().synthesize(request({ format: "pcm16" })));
    expect(received[0].body.response_format).toBe("pcm");
    expect(chunks.map((chunk) => chunk.data.length)).toEqual([9600, 9600, 9600, 9600, 9600, 1000]);
    expect(chunks.every((chunk) => chunk.mimeType === "audio/pcm" && chunk.sampleRate === 24000)).toBe(true);
    expect(Buffer.from(join(chunks)).equals(Buffer.from(pcm.subarray(0, pcm.length - 1)))).toBe(true);
  });

  it("uses fable when no voice is given, and refuses a voice it does not know without calling the service", async () => {
    behaviour = () => new Response(servicePcm(0.5));
    await collect(provider().synthesize(request()));
    expect(received[0].body.voice).toBe("fable");
    expect(provider().voices()[0]).toBe("fable");
    const error = await caught(collect(provider().synthesize(request({ voice: { voice_id: "slt" } }))));
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(false);
    expect(received.length).toBe(1);
  });

  it("sends the request as soon as synthesize is called", async () => {
    behaviour = () => new Response(servicePcm(0.5));
    const stream = provider().synthesize(request());
    await Bun.sleep(200);
    expect(received.length).toBe(1);
    expect((await collect(stream)).chunks.length).toBeGreaterThan(0);
  });

  it.each([
    [500, true],
    [503, true],
    [429, true],
    [400, false],
    [401, false],
  ])("turns an HTTP %i into a TtsError (retryable: %p) without logging the text", async (status, retryable) => {
    behaviour = () => Response.json({ error: { message: "nope" } }, { status });
    const logger = recordingLogger();
    const error = await caught(collect(provider({}, logger).synthesize(request({ text: "Secret squirrel words" }))));
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(retryable);
    expect((error as TtsError).message).toContain(String(status));
    expect(JSON.stringify(logger.lines)).not.toContain("squirrel");
    expect(JSON.stringify(logger.lines)).not.toContain("sk-test-123");
  });

  it("turns a refused connection into a retryable TtsError", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const error = await caught(collect(provider({ baseUrl: `http://127.0.0.1:${port}/v1` }).synthesize(request())));
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).retryable).toBe(true);
  });

  it("times out a service that never answers", async () => {
    behaviour = () => new Promise<Response>((resolve) => stalls.push(() => resolve(new Response(""))));
    const started = performance.now();
    const error = await caught(collect(provider({ timeoutMs: 300 }).synthesize(request())));
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).message).toContain("timed out");
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("gives up on a body that stalls half-way, after delivering what arrived", async () => {
    behaviour = stallAfter(12000);
    const chunks: Uint8Array[] = [];
    const started = performance.now();
    const error = await caught(
      (async () => {
        for await (const chunk of provider({ timeoutMs: 300 }).synthesize(request({ format: "pcm16" }))) chunks.push(chunk.data);
      })(),
    );
    expect(error).toBeInstanceOf(TtsError);
    expect((error as TtsError).message).toContain("stalled");
    expect(chunks.length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("does not count a slow consumer as a stall", async () => {
    behaviour = () => new Response(trickle(servicePcm(2), 4000));
    let count = 0;
    // Each chunk takes longer to "send" than the stall timeout.
    for await (const _ of provider({ timeoutMs: 150 }).synthesize(request({ format: "pcm16" }))) {
      if (++count === 4) break;
      await Bun.sleep(200);
    }
    expect(count).toBe(4);
  });

  it("stops quietly when aborted mid-stream", async () => {
    behaviour = stallAfter(12000);
    const controller = new AbortController();
    const chunks: Uint8Array[] = [];
    const started = performance.now();
    for await (const chunk of provider({ timeoutMs: 5000 }).synthesize(request({ signal: controller.signal, format: "pcm16" }))) {
      chunks.push(chunk.data);
      controller.abort();
    }
    expect(chunks.length).toBe(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("delivers no half sentence of MP3 when the body stalls: the error alone", async () => {
    behaviour = stallAfter(12000);
    const chunks: Uint8Array[] = [];
    const error = await caught(
      (async () => {
        for await (const chunk of provider({ timeoutMs: 300 }).synthesize(request())) chunks.push(chunk.data);
      })(),
    );
    expect(error).toBeInstanceOf(TtsError);
    expect(chunks).toEqual([]);
  });

  it("limits the turns speaking at once only when told to", () => {
    const unlimited = provider();
    expect(Array.from({ length: 50 }, () => unlimited.admit()).every((ticket) => ticket !== null)).toBe(true);
    const limited = provider({ maxTurns: 1 });
    const ticket = limited.admit();
    expect(ticket).not.toBeNull();
    expect(limited.admit()).toBeNull();
    ticket!.release();
    expect(limited.admit()).not.toBeNull();
  });
});

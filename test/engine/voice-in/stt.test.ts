/**
 * Speech recognition providers against a fake OpenAI-compatible transcription server on loopback that checks
 * what it receives (multipart form, 16 kHz mono 16-bit WAV, model, language, credentials), and the offline
 * PocketSphinx provider against a fake program and, when Debian's package is installed, the real one.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import {
  createSttProvider,
  NoSttProvider,
  OpenAiTranscriptionProvider,
  PocketsphinxProvider,
  transcribeBuffer,
  VoiceBuffer,
  VoiceInputError,
} from "../../../src/engine/voice-in/index.ts";
import { unityChunks } from "./helpers/ogg.ts";
import { fixture, readWav16k } from "./helpers/speech.ts";

interface Received {
  auth: string | null;
  model: string | null;
  language: string | null;
  format: string | null;
  fileName: string | null;
  fileType: string | null;
  samples: Int16Array | null;
  wavError: string | null;
}

let received: Received[] = [];
let behaviour: "ok" | "500" | "401" | "html" | "slow" | "notext" = "ok";
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method !== "POST" || url.pathname !== "/v1/audio/transcriptions") return new Response("not found", { status: 404 });
      const form = await request.formData();
      const file = form.get("file");
      let samples: Int16Array | null = null;
      let wavError: string | null = null;
      if (file instanceof Blob) {
        try {
          samples = readWav16k(new Uint8Array(await file.arrayBuffer()));
        } catch (error) {
          wavError = (error as Error).message;
        }
      }
      received.push({
        auth: request.headers.get("authorization"),
        model: form.get("model") as string | null,
        language: form.get("language") as string | null,
        format: form.get("response_format") as string | null,
        fileName: file instanceof File ? file.name : null,
        fileType: file instanceof Blob ? file.type : null,
        samples,
        wavError,
      });
      if (behaviour === "500") return new Response("boom", { status: 500 });
      if (behaviour === "401") return Response.json({ error: { message: "bad key sk-secret" } }, { status: 401 });
      if (behaviour === "html") return new Response("<html>proxy</html>", { headers: { "content-type": "text/html" } });
      if (behaviour === "notext") return Response.json({ transcript: "x" });
      if (behaviour === "slow") await Bun.sleep(1000);
      if (wavError) return Response.json({ error: wavError }, { status: 400 });
      return Response.json({ text: ` heard ${samples!.length} samples ` });
    },
  });
});
afterAll(() => server.stop(true));

function provider(overrides: Partial<{ sttApiKey: string; sttTimeoutMs: number; sttBaseUrl: string }> = {}, logs: string[] = []) {
  return new OpenAiTranscriptionProvider(
    { sttBaseUrl: `http://127.0.0.1:${server.port}/v1/`, sttApiKey: "sk-test", sttModel: "whisper-1", sttTimeoutMs: 5000, ...overrides },
    {
      info: (fields, message) => logs.push(`${message} ${JSON.stringify(fields)}`),
      warn: (fields, message) => logs.push(`${message} ${JSON.stringify(fields)}`),
    },
  );
}

async function unityBuffer(): Promise<VoiceBuffer> {
  const voice = await VoiceBuffer.create({ maxSeconds: 60, maxBytes: 8 << 20, silenceMs: 700, vadMode: 3 });
  for (const chunk of unityChunks(fixture("puppy.unity.ogg"))) await voice.add(chunk, { mime_type: "audio/ogg", sampling_rate: 16000 });
  return voice;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return error instanceof VoiceInputError ? error.code : `unexpected ${String(error)}`;
  }
}

describe("OpenAI-compatible transcription", () => {
  it("sends the buffered speech as a 16 kHz mono WAV form upload and answers the text", async () => {
    received = [];
    behaviour = "ok";
    const voice = await unityBuffer();
    const expected = readWav16k((await voice.wav())!);
    const logs: string[] = [];
    const result = await transcribeBuffer(voice, provider({}, logs), "en-US");
    expect(result.text).toBe(`heard ${expected.length} samples`);
    expect(result.heardSpeech).toBe(true);
    expect(result.audioMs).toBeCloseTo(expected.length / 16, 0);
    expect(received).toHaveLength(1);
    const { samples: _samples, fileType, ...fields } = received[0];
    expect(fields).toEqual({ auth: "Bearer sk-test", model: "whisper-1", language: "en", format: "json", fileName: "audio.wav", wavError: null });
    expect(["audio/wav", "audio/x-wav"]).toContain(fileType!); // Bun's form parser names it from the extension
    expect(received[0].samples).toEqual(expected);
    // transcribe does not consume; consume does
    expect(voice.durationMs).toBeGreaterThan(4000);
    await transcribeBuffer(voice, provider(), "en", { consume: true });
    expect(voice.durationMs).toBe(0);
    // Logs carry sizes and timings, never the transcript.
    expect(logs.join("\n")).not.toContain("heard");
    voice.close();
  });

  it("sends no Authorization header when no key is set (a local whisper.cpp server), and no language it cannot name", async () => {
    received = [];
    behaviour = "ok";
    const voice = await unityBuffer();
    await transcribeBuffer(voice, provider({ sttApiKey: "" }), "");
    expect(received[0].auth).toBeNull();
    expect(received[0].language).toBeNull();
    voice.close();
  });

  it("answers no_audio for an empty buffer without calling the recogniser", async () => {
    received = [];
    const voice = await VoiceBuffer.create({ maxSeconds: 60, maxBytes: 8 << 20, silenceMs: 700, vadMode: 3 });
    expect(await codeOf(transcribeBuffer(voice, provider(), "en"))).toBe("no_audio");
    expect(received).toHaveLength(0);
    voice.close();
  });

  it.each([
    ["an HTTP 500", "500", "stt_failed", true],
    ["refused credentials", "401", "stt_unavailable", true],
    ["an HTML page", "html", "stt_failed", false],
    ["JSON without text", "notext", "stt_failed", false],
  ] as const)("turns %s into %s", async (_name, mode, code, retryable) => {
    behaviour = mode;
    const voice = await unityBuffer();
    const error = await transcribeBuffer(voice, provider(), "en").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VoiceInputError);
    expect((error as VoiceInputError).code).toBe(code);
    expect((error as VoiceInputError).retryable).toBe(retryable);
    expect((error as Error).message).not.toContain("sk-secret");
    voice.close();
  });

  it("gives up after HOOT_STT_TIMEOUT_MS with stt_unavailable", async () => {
    behaviour = "slow";
    const voice = await unityBuffer();
    const started = performance.now();
    expect(await codeOf(transcribeBuffer(voice, provider({ sttTimeoutMs: 200 }), "en"))).toBe("stt_unavailable");
    expect(performance.now() - started).toBeLessThan(900);
    voice.close();
  });

  it("answers stt_unavailable when nothing listens at the address", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const voice = await unityBuffer();
    expect(await codeOf(transcribeBuffer(voice, provider({ sttBaseUrl: `http://127.0.0.1:${port}/v1` }), "en"))).toBe("stt_unavailable");
    voice.close();
  });
});

describe("choosing a recogniser", () => {
  it("uses the transcription server when HOOT_STT_BASE_URL is set", () => {
    expect(createSttProvider(loadConfig({ HOOT_STT_BASE_URL: "http://127.0.0.1:9/v1" })).name).toBe("openai");
  });

  it("has none when told so, and says how to configure one", async () => {
    const stt = createSttProvider(loadConfig({ HOOT_STT_PROVIDER: "none" }));
    expect(stt).toBeInstanceOf(NoSttProvider);
    const error = await stt.transcribe({ wav: new Uint8Array(44), languageCode: "en" }).catch((e: unknown) => e);
    expect((error as VoiceInputError).code).toBe("stt_unavailable");
    expect((error as Error).message).toContain("HOOT_STT_BASE_URL");
  });

  it("refuses openai without a base URL by saying so", async () => {
    const stt = createSttProvider(loadConfig({ HOOT_STT_PROVIDER: "openai" }));
    const error = await stt.transcribe({ wav: new Uint8Array(44), languageCode: "en" }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("HOOT_STT_BASE_URL is not set");
  });

  it("refuses a base URL that is not http(s)", () => {
    expect(() => loadConfig({ HOOT_STT_BASE_URL: "ftp://x" })).toThrow("HOOT_STT_BASE_URL");
  });
});

describe("offline PocketSphinx provider", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "hoot-fake-sphinx-"));
    // A stand-in with pocketsphinx_continuous's command line: reads the WAV from stdin, prints one line.
    writeFileSync(
      join(dir, "fake-sphinx"),
      `#!/bin/sh\n[ "$1" = "-infile" ] && [ "$2" = "/dev/stdin" ] || exit 3\nhead -c 4 | grep -q RIFF || exit 4\ncat > /dev/null\necho "i want to play"\n`,
    );
    chmodSync(join(dir, "fake-sphinx"), 0o755);
    writeFileSync(join(dir, "hang"), "#!/bin/sh\nexec sleep 5\n");
    chmodSync(join(dir, "hang"), 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("pipes the WAV to the program and answers what it printed", async () => {
    const voice = await unityBuffer();
    const result = await transcribeBuffer(voice, new PocketsphinxProvider(join(dir, "fake-sphinx"), 5000), "en");
    expect(result.text).toBe("i want to play");
    voice.close();
  });

  it("refuses languages other than English with stt_unavailable", async () => {
    const voice = await unityBuffer();
    expect(await codeOf(transcribeBuffer(voice, new PocketsphinxProvider(join(dir, "fake-sphinx"), 5000), "fi"))).toBe("stt_unavailable");
    voice.close();
  });

  it("kills a program that does not finish in time", async () => {
    const voice = await unityBuffer();
    const started = performance.now();
    expect(await codeOf(transcribeBuffer(voice, new PocketsphinxProvider(join(dir, "hang"), 200), "en"))).toBe("stt_unavailable");
    expect(performance.now() - started).toBeLessThan(3000);
    voice.close();
  });

  it("answers stt_unavailable when the program is missing", async () => {
    const voice = await unityBuffer();
    expect(await codeOf(transcribeBuffer(voice, new PocketsphinxProvider(join(dir, "nope"), 1000), "en"))).toBe("stt_unavailable");
    voice.close();
  });

  // Debian's pocketsphinx is not installed by CI; this runs where it is (docs/performance.md has its word error rate).
  it.skipIf(PocketsphinxProvider.find() === null)(
    "recognises a sentence spoken by hoot's own voice (real pocketsphinx)",
    async () => {
      const voice = await unityBuffer();
      const result = await transcribeBuffer(voice, new PocketsphinxProvider(PocketsphinxProvider.find()!, 30_000), "en");
      expect(result.text).toContain("puppy");
      voice.close();
    },
    30_000,
  );
});

/**
 * A fake OpenAI-compatible transcription server on loopback (`POST /v1/audio/transcriptions`), for tests and
 * the voice benchmark: it checks what a recogniser is given (a multipart form whose `file` is a 16 kHz mono
 * 16-bit WAV, `model`, `language`, `response_format`), keeps the decoded samples, and answers `{text}` after
 * a settable latency, or fails as told.
 */
import { readWav16k } from "../../engine/voice-in/helpers/speech.ts";

export interface SttRequest {
  model: string | null;
  language: string | null;
  responseFormat: string | null;
  fileName: string | null;
  fileType: string | null;
  /** The WAV's samples, or null when it was no 16 kHz mono 16-bit WAV (then `wavError` says why). */
  samples: Int16Array | null;
  wavError: string | null;
}

export interface FakeSttServer {
  /** Base URL for HOOT_STT_BASE_URL (ends in /v1). */
  url: string;
  requests: SttRequest[];
  /** What the next transcriptions answer. */
  text: string;
  latencyMs: number;
  /** When set, every request is answered with this HTTP status. */
  status: number | null;
  stop(): Promise<void>;
}

/**
 * Starts the fake on 127.0.0.1, port 0 (synchronously, so a test file can start it before its server).
 * @example const stt = startFakeStt("I want to play with my puppy"); startTestServer({ HOOT_STT_BASE_URL: stt.url })
 */
export function startFakeStt(text = "I want to play with my puppy", latencyMs = 0): FakeSttServer {
  const fake: FakeSttServer = { url: "", requests: [], text, latencyMs, status: null, stop: async () => {} };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      if (request.method !== "POST" || new URL(request.url).pathname !== "/v1/audio/transcriptions") return new Response("not found", { status: 404 });
      const form = await request.formData();
      const file = form.get("file");
      let samples: Int16Array | null = null;
      let wavError: string | null = file instanceof Blob ? null : "no file";
      if (file instanceof Blob) {
        try {
          samples = readWav16k(new Uint8Array(await file.arrayBuffer()));
        } catch (error) {
          wavError = (error as Error).message;
        }
      }
      fake.requests.push({
        model: form.get("model") as string | null,
        language: form.get("language") as string | null,
        responseFormat: form.get("response_format") as string | null,
        fileName: file instanceof File ? file.name : null,
        fileType: file instanceof Blob ? file.type : null,
        samples,
        wavError,
      });
      if (fake.latencyMs) await Bun.sleep(fake.latencyMs);
      if (fake.status) return Response.json({ error: { message: "failed as told" } }, { status: fake.status });
      if (wavError) return Response.json({ error: { message: wavError } }, { status: 400 });
      return Response.json({ text: fake.text });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}/v1`;
  fake.stop = () => server.stop(true);
  return fake;
}

import { describe, expect, it } from "bun:test";
import { loadConfig } from "../../../src/config.ts";
import { LocalSpeechProvider, OpenAiSpeechProvider, type TtsLogger, createTtsProvider } from "../../../src/engine/tts/index.ts";
import { createLogger } from "../../../src/log.ts";

describe("createTtsProvider", () => {
  // Typed on purpose: the app's pino logger must fit the provider's logger type.
  const logger: TtsLogger = createLogger("silent");

  it("builds the offline flite provider by default", async () => {
    const tts = createTtsProvider(loadConfig({ HOOT_TTS_WORKERS: "1" }), logger);
    expect(tts).toBeInstanceOf(LocalSpeechProvider);
    expect(tts.name).toBe("local");
    expect(tts.voices()[0]).toBe("slt");
    await tts.close();
  });

  it("builds the OpenAI-compatible provider when HOOT_TTS_PROVIDER=openai", async () => {
    const tts = createTtsProvider(loadConfig({ HOOT_TTS_PROVIDER: "openai", HOOT_TTS_BASE_URL: "http://127.0.0.1:9/v1" }), logger);
    expect(tts).toBeInstanceOf(OpenAiSpeechProvider);
    expect(tts.name).toBe("openai");
    expect(tts.voices()).toContain("nova");
    expect(tts.voices()[0]).toBe("fable");
    await tts.close();
  });
});

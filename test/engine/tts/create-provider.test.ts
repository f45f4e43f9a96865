import { describe, expect, it } from "bun:test";
import { availableParallelism } from "node:os";
import { createTtsProvider, LocalSpeechProvider, OpenAiSpeechProvider, type TtsLogger, usableCores } from "../../../src/engine/tts/index.ts";
import { createLogger } from "../../../src/log.ts";

describe("createTtsProvider", () => {
  // Typed on purpose: the app's pino logger must fit the provider's logger type.
  const logger: TtsLogger = createLogger("silent");

  it("builds the offline flite provider by default", async () => {
    const tts = createTtsProvider({ workers: 1 }, logger);
    expect(tts).toBeInstanceOf(LocalSpeechProvider);
    expect(tts.name).toBe("local");
    expect(tts.voices()[0]).toBe("slt");
    expect((tts as LocalSpeechProvider).stats().workers).toBe(1);
    await tts.close();
  });

  it("sizes the workers to the cores this process may run on (its CPU affinity), not the machine's", () => {
    // Pinned to one core with taskset, a process on a bigger machine must count one core.
    const script =
      'import { usableCores } from "./src/engine/tts/index.ts"; import { loadConfig } from "./src/config.ts"; console.log(usableCores(), loadConfig({}).ttsWorkers)';
    const run = Bun.spawnSync(["taskset", "-c", "0", process.execPath, "-e", script], {
      cwd: `${import.meta.dir}/../../..`,
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(run.stdout.toString().trim()).toBe("1 1");
    expect(usableCores()).toBe(availableParallelism());
  });

  it("builds the OpenAI-compatible provider when asked", async () => {
    const tts = createTtsProvider({ provider: "openai", baseUrl: "http://127.0.0.1:9/v1" }, logger);
    expect(tts).toBeInstanceOf(OpenAiSpeechProvider);
    expect(tts.name).toBe("openai");
    expect(tts.voices()).toContain("nova");
    expect(tts.voices()[0]).toBe("fable");
    expect(tts.admit?.()).not.toBeNull();
    await tts.close();
  });
});

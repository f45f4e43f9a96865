/**
 * Builds the turn engine the settings ask for. Interim: a plain echo engine until the pipeline lands.
 */
import type { Config } from "./config.ts";
import type { Logger } from "./log.ts";
import type { Engine, TurnEvent } from "./engine/types.ts";

/** The engine for `config`. */
export async function buildEngine(_config: Config, _logger: Logger): Promise<Engine> {
  return {
    async *runTurn(input): AsyncIterable<TurnEvent> {
      const words = `You said ${input.text.length} characters. Hello there!`.split(/(?<= )/);
      for (const w of words) {
        if (input.signal.aborted) return;
        yield { event: "text", text: w };
      }
      yield { event: "text_complete", text: words.join("") };
    },
    voices: () => ["kal"],
    close: async () => {},
  };
}

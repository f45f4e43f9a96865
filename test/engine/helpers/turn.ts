/** Shared pieces for engine tests: settings, a turn input, and collecting events with their arrival times. */
import { loadConfig, type Config } from "../../../src/config.ts";
import type { TurnEvent, TurnInput } from "../../../src/engine/types.ts";

/** Settings from defaults plus `env` (never the process environment). */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ HOOT_LOCAL_TOKENS_PER_SECOND: "0", ...env });
}

/** A turn input with sensible defaults. */
export function turnInput(overrides: Partial<TurnInput> = {}): TurnInput {
  return {
    text: "hello",
    context: {},
    config: { prompt: "You are Ollie the owl.", audio_format: "mp3", language_code: "en" },
    history: [],
    audioOutput: false,
    signal: new AbortController().signal,
    ...overrides,
  };
}

export interface Timed {
  event: TurnEvent;
  at: number;
}

/** Every event of a turn with the time (ms since the call) it arrived. */
export async function collect(events: AsyncIterable<TurnEvent>): Promise<Timed[]> {
  const start = performance.now();
  const out: Timed[] = [];
  for await (const event of events) out.push({ event, at: performance.now() - start });
  return out;
}

/** The event names in order. */
export function names(events: Timed[]): string[] {
  return events.map((e) => e.event.event);
}

/** The concatenated text events. */
export function textOf(events: Timed[]): string {
  return events.map((e) => (e.event.event === "text" ? e.event.text : "")).join("");
}

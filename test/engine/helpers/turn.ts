/** Shared pieces for engine tests: engine options, a turn input, and collecting frames with their arrival times. */
import type { EngineOptions } from "../../../src/engine/engine.ts";
import type { TurnFrame } from "../../../src/engine/frames.ts";
import type { TurnInput } from "../../../src/engine/types.ts";

/** Engine options besides the providers: short model deadlines so failing tests end quickly. */
export const testOptions: Omit<EngineOptions, "llm" | "tts"> = { historyBudgetChars: 6000, llmTimeouts: { firstTokenMs: 2000, stallMs: 2000 } };

/** A turn input with sensible defaults. */
export function turnInput(overrides: Partial<TurnInput> = {}): TurnInput {
  return {
    text: "hello",
    context: {},
    config: { prompt: "You are Ollie the owl.", audio_format: "mp3", language_code: "en", safety_policy: "children_strict" },
    history: [],
    audioOutput: false,
    signal: new AbortController().signal,
    ...overrides,
  };
}

export interface Timed {
  frame: TurnFrame;
  at: number;
}

/** Every frame of a turn with the time (ms since the call) it arrived. */
export async function collect(frames: AsyncIterable<TurnFrame>): Promise<Timed[]> {
  const start = performance.now();
  const out: Timed[] = [];
  for await (const frame of frames) out.push({ frame, at: performance.now() - start });
  return out;
}

/** The frame types in order. */
export function types(frames: Timed[]): string[] {
  return frames.map((f) => f.frame.type);
}

/** The concatenated text frames. */
export function textOf(frames: Timed[]): string {
  return frames.map((f) => (f.frame.type === "text" ? f.frame.text : "")).join("");
}

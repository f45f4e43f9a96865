/**
 * How much time the turn pipeline adds. Run: `npx bun bench/engine-overhead.ts [iterations]`.
 *
 * 1. Pipeline overhead: time from a fake provider yielding its first token to the engine's first `text` frame
 *    turned into its websocket message by toWire (prompt assembly happens before the provider is called, so
 *    this is the per-token path: timeouts, retry, chunker, safety, output queue, wire encoding).
 *    Target: p50 <= 1 ms.
 * 2. First text with the local engine at tokens/sec 0: from calling runTurn to the first `text` message
 *    (prompt assembly and reply composition included), and the whole turn.
 */
import { createEngine, createLocalLlm, type LlmProvider, type LlmRequest, type TurnFrame } from "../src/engine/index.ts";
import type { TurnInput } from "../src/engine/types.ts";
import { type RequestStamp, toWire } from "../src/interact/protocol.ts";

const iterations = Number(process.argv[2] ?? 5000);
const warmup = Math.min(500, Math.floor(iterations / 5));
const stamp: RequestStamp = { uid: "bench", clientStartTime: null, serverStart: Date.now() * 1000 };
/** True when `frame` is text; encodes it for the wire first, as the socket would. */
const isText = (frame: TurnFrame): boolean => toWire(frame, stamp).length > 0 && frame.type === "text";

/** A provider that notes when it hands over its first token. */
class StampingLlm implements LlmProvider {
  readonly name = "stamping";
  firstTokenAt = 0;
  async *stream(request: LlmRequest): AsyncGenerator<string> {
    const tokens = ["Hello", " there,", " my", " little", " friend!", " How", " are", " you?"];
    for (let i = 0; i < tokens.length; i++) {
      if (request.signal.aborted) return;
      if (i === 0) this.firstTokenAt = performance.now();
      yield tokens[i] as string;
    }
  }
  async close(): Promise<void> {}
}

function input(text: string): TurnInput {
  return {
    text,
    context: { player_name: "Mia", level: 3 },
    config: { prompt: "You are Ollie the owl, a kind friend of {{player_name}}.", audio_format: "mp3", language_code: "en", safety_policy: "children_strict" },
    history: [
      { role: "user", text: "hello" },
      { role: "assistant", text: "Hi Mia! I'm Ollie the owl." },
    ],
    audioOutput: false,
    signal: new AbortController().signal,
  };
}

function stats(samples: number[]): { p50: number; p99: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

async function measureOverhead(): Promise<number[]> {
  const llm = new StampingLlm();
  const engine = createEngine({ llm, tts: null });
  const samples: number[] = [];
  for (let i = 0; i < iterations + warmup; i++) {
    let first = 0;
    for await (const frame of engine.runTurn(input("what is 2+3?"))) {
      if (isText(frame) && first === 0) first = performance.now();
    }
    if (i >= warmup) samples.push(first - llm.firstTokenAt);
  }
  return samples;
}

async function measureLocal(): Promise<{ first: number[]; whole: number[] }> {
  const engine = createEngine({ llm: createLocalLlm({ tokensPerSecond: 0 }), tts: null });
  const texts = [".", "hi", "what is 2+3?", "tell me a story about a dragon", "I'm sad", "I like dinosaurs"];
  const first: number[] = [];
  const whole: number[] = [];
  for (let i = 0; i < iterations + warmup; i++) {
    const start = performance.now();
    let firstAt = 0;
    for await (const frame of engine.runTurn(input(texts[i % texts.length] as string))) {
      if (isText(frame) && firstAt === 0) firstAt = performance.now();
    }
    if (i >= warmup) {
      first.push(firstAt - start);
      whole.push(performance.now() - start);
    }
  }
  return { first, whole };
}

const overhead = await measureOverhead();
const local = await measureLocal();
const rows: [string, number[]][] = [
  ["pipeline overhead: provider first token -> first text message", overhead],
  ["local engine (0 tok/s): runTurn -> first text message", local.first],
  ["local engine (0 tok/s): whole turn", local.whole],
];
const ms = (n: number): string => `${n.toFixed(3)} ms`.padStart(10);
console.log(`engine overhead, ${iterations} iterations each (after ${warmup} warm-up), bun ${Bun.version}\n`);
console.log(`${"measure".padEnd(62)}${"p50".padStart(10)}${"p99".padStart(10)}${"mean".padStart(10)}`);
for (const [name, samples] of rows) {
  const s = stats(samples);
  console.log(`${name.padEnd(62)}${ms(s.p50)}${ms(s.p99)}${ms(s.mean)}`);
}
const target = stats(overhead).p50 <= 1 ? "met" : "MISSED";
console.log(`\ntarget: pipeline overhead p50 <= 1 ms: ${target}`);

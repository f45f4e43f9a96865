/**
 * Shared parts of the property-based fuzz tests (fast-check): the run count, a health watcher that measures
 * how quickly /api/health answers while the fuzzer works, and the checks every answer must pass.
 */
import fc from "fast-check";

/** Cases per property: a few thousand in CI, more with HOOT_FUZZ_RUNS. */
export function fuzzRuns(fallback: number): number {
  const value = Number(process.env.HOOT_FUZZ_RUNS);
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

/** A marker the fuzzer hides in what it sends; an error that contains it echoed the input. */
export const MARKER = "Zq9Echo";

/** Strings of every kind, some of them carrying the marker. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom(
    "",
    " ",
    "constructor",
    "__proto__",
    "toString",
    "prototype",
    "hasOwnProperty",
    "null",
    "true",
    "0",
    "-1",
    "1e309",
    "%00",
    "../..",
    "<script>",
    "'; DROP TABLE players; --",
  ),
  fc.nat({ max: 10_000 }).map((n) => `${MARKER}${n}<>"'`),
  fc.nat({ max: 10_000 }).map((n) => `hoot_dev_dk_${MARKER}${n}`),
);

/** Nesting of `depth` arrays/objects around a value, as text. */
export const deepJson: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1, max: 3000 }), fc.boolean(), fc.boolean())
  .map(([depth, objects, closed]) =>
    objects ? '{"a":'.repeat(depth) + "1" + (closed ? "}".repeat(depth) : "") : "[".repeat(depth) + (closed ? "]".repeat(depth) : ""),
  );

const STACK = /\n\s+at |\bat [^\s]+ \(|node_modules|\/src\/|\.ts:\d+|\bTypeError\b|\bRangeError\b|SQLITE_/;

/** A sentence naming what is wrong when `text` carries a stack trace or internal detail, else null. */
export function leaksInternals(text: string): string | null {
  return STACK.test(text) ? `answer leaks internals: ${text.slice(0, 300)}` : null;
}

/** Polls /api/health every `everyMs` and records the slowest answer. */
export function watchHealth(url: string, everyMs = 50) {
  let slowest = 0;
  let failures = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/api/health`);
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      } catch {
        failures++;
      }
      slowest = Math.max(slowest, performance.now() - started);
      await Bun.sleep(everyMs);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { slowestMs: Math.round(slowest), failures };
    },
  };
}

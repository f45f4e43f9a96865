/**
 * Identical configurations, shared: an app's sockets nearly always send the same configuration, and ten
 * thousand idle sessions should not hold ten thousand copies of one prompt. A checked configuration is looked
 * up by a hash of its JSON text; when a live one with the same text exists, the session keeps that one instead.
 *
 * Rules it keeps:
 * - a shared configuration is a frozen copy, to any depth, so no session can change what another one holds (the
 *   copy is read back from the JSON text, so nothing the caller holds, such as a request's arrays, is frozen);
 * - the table holds its configurations weakly (a configuration no session holds any more is collected, and its
 *   entry goes with it) and at most MAX_SHARED entries (the oldest leaves first), so it cannot grow without bound;
 * - a hash match counts only when the JSON texts are equal, so a collision never hands one session another's
 *   configuration.
 */
import type { SessionConfig } from "./model.ts";

/** Entries in the table at most. */
export const MAX_SHARED = 10_000;

const shared = new Map<number | bigint, WeakRef<SessionConfig>>();
const collected = new FinalizationRegistry<number | bigint>((key) => {
  const ref = shared.get(key);
  if (ref && ref.deref() === undefined) shared.delete(key);
});

/**
 * The configuration every session with this same configuration holds: a frozen copy of the first one seen.
 * @example shareConfiguration(checked) === shareConfiguration(structuredClone(checked)) // true
 */
export function shareConfiguration(config: SessionConfig): SessionConfig {
  const text = JSON.stringify(config);
  const key = Bun.hash(text);
  const known = shared.get(key)?.deref();
  if (known !== undefined && JSON.stringify(known) === text) return known;
  if (shared.size >= MAX_SHARED) shared.delete(shared.keys().next().value as number | bigint);
  // A re-set key moves to the end (the newest).
  shared.delete(key);
  const copy = deepFreeze(JSON.parse(text) as SessionConfig);
  shared.set(key, new WeakRef(copy));
  collected.register(copy, key);
  return copy;
}

/** Configurations shared now (for tests and the benchmark). */
export function sharedConfigurations(): number {
  return shared.size;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

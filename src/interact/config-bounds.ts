/**
 * The bounds on the configuration a session holds (issue 24). `merge_configuration` deep-merges, so without
 * them a client could grow one session's configuration by a message's worth on every merge: 230 merges made a
 * 13.8 MB configuration and 45 MiB of server memory. The merged result is measured before it replaces the
 * session's configuration, so a refused request leaves the previous one in place.
 *
 * Three bounds, each a setting (docs/limits.md): the configuration's size as JSON, the number of keys in its
 * `context` counted at every depth, and how deeply `context` values nest lists and objects.
 */

export interface ConfigurationLimits {
  /** Bytes of the whole configuration as JSON (HOOT_CONFIG_MAX_BYTES; default: the message size limit). */
  maxBytes: number;
  /** Keys of `context`, counted at every depth (HOOT_CONFIG_MAX_CONTEXT_KEYS). */
  maxContextKeys: number;
  /** Levels of lists and objects inside a `context` value (HOOT_CONFIG_MAX_CONTEXT_DEPTH). */
  maxContextDepth: number;
}

/**
 * Null when `config` is within `limits`, else a sentence naming the bound it passes. Stops counting as soon as
 * a bound is passed, so a hostile configuration costs no more than the bound to look at.
 * @example configurationProblem({ prompt: "x", context: { a: { b: { c: 1 } } } }, { maxBytes: 65536, maxContextKeys: 100, maxContextDepth: 1 })
 * // "the configuration's context nests lists and objects deeper than 1 level (HOOT_CONFIG_MAX_CONTEXT_DEPTH) ..."
 */
export function configurationProblem(config: Record<string, unknown>, limits: ConfigurationLimits): string | null {
  const kept = "; the session keeps its previous configuration";
  const context = config.context;
  if (typeof context === "object" && context !== null) {
    const shape = contextShape(context, limits);
    if (shape === "depth")
      return `the configuration's context nests lists and objects deeper than ${plural(limits.maxContextDepth, "level")} (HOOT_CONFIG_MAX_CONTEXT_DEPTH)${kept}`;
    if (shape === "keys")
      return `the configuration's context has more than ${plural(limits.maxContextKeys, "key")}, counted at every depth (HOOT_CONFIG_MAX_CONTEXT_KEYS)${kept}`;
  }
  const bytes = Buffer.byteLength(JSON.stringify(config), "utf8");
  if (bytes > limits.maxBytes)
    return `the configuration would be ${bytes} bytes as JSON, more than the limit of ${limits.maxBytes} bytes (HOOT_CONFIG_MAX_BYTES)${kept}`;
  return null;
}

/** Walks `context` without recursion (a deep value cannot exhaust the stack); "keys" or "depth" at the first bound passed. */
function contextShape(context: object, limits: ConfigurationLimits): "keys" | "depth" | null {
  let keys = 0;
  // [value, depth of the lists and objects around it inside a context value]
  const stack: [unknown, number][] = Object.values(context).map((value) => [value, 0]);
  keys += stack.length;
  if (keys > limits.maxContextKeys) return "keys";
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value !== "object" || value === null) continue;
    if (depth + 1 > limits.maxContextDepth) return "depth";
    const children = Array.isArray(value) ? value : Object.values(value);
    if (!Array.isArray(value)) {
      keys += children.length;
      if (keys > limits.maxContextKeys) return "keys";
    }
    for (const child of children) stack.push([child, depth + 1]);
  }
  return null;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

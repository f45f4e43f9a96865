/**
 * The rules library, loaded off the start-up path. Importing `checks.ts` builds every rule, obscenity's
 * matcher and the policy schema checks (a few hundred milliseconds on a busy 2-core machine), so the app
 * imports only types statically and reaches the library through `safetyLibrary()`: the first call starts the
 * import, later calls share it. `warmUpSafetyLater()` starts it, and compiles the rules, right after the
 * server listens, so neither start-up nor (usually) the first child pays for it.
 */
type SafetyLibrary = typeof import("./checks.ts");

let loading: Promise<SafetyLibrary> | null = null;

/**
 * The safety library (loaded once).
 * @example const { builtinPolicy } = await safetyLibrary()
 */
export function safetyLibrary(): Promise<SafetyLibrary> {
  loading ??= import("./checks.ts");
  return loading;
}

/** Loads and warms the library on a timer, after the current start-up work (call it before listening). */
export function warmUpSafetyLater(onError: (error: unknown) => void = () => {}): void {
  const timer = setTimeout(() => {
    safetyLibrary().then((lib) => lib.warmUpSafety(), onError);
  }, 0);
  timer.unref?.();
}

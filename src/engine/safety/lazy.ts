/**
 * The rules library, loaded off the start-up path. Importing `checks.ts` builds every rule, obscenity's
 * matcher and the policy schema checks (a few hundred milliseconds on a busy 2-core machine), so the app
 * imports only types statically and reaches the library through `safetyLibrary()`: the first call starts the
 * import, later calls share it. `warmUpSafetyLater()` starts it, and compiles the rules, shortly after the
 * server listens, so neither start-up nor (usually) the first child pays for it.
 *
 * "Shortly after": WARM_UP_DELAY_MS after listening, in two steps (the import, then compiling the rules), each
 * its own turn of the event loop. Together they hold the main thread for ~100 ms of CPU; the delay lets the
 * requests that come first after a start (a supervisor's health check, a developer's first calls) be answered
 * before that, and the split lets requests in between. A child's first turn needs a login, a socket and a
 * configuration first; one that still comes earlier simply waits for the same import.
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

/** How long after the call (made just before listening) the warm-up starts. */
export const WARM_UP_DELAY_MS = 250;

/** Loads and warms the library on a timer, after the start-up work and the first requests (call it before listening). */
export function warmUpSafetyLater(onError: (error: unknown) => void = () => {}, delayMs = WARM_UP_DELAY_MS): void {
  const timer = setTimeout(() => {
    safetyLibrary().then((lib) => {
      setTimeout(() => {
        try {
          lib.warmUpSafety();
        } catch (error) {
          onError(error);
        }
      }, 0).unref?.();
    }, onError);
  }, delayMs);
  timer.unref?.();
}

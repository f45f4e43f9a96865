/**
 * The caller's address, for per-address limits. Behind a proxy you run (HOOT_TRUST_PROXY), the address the
 * proxy saw is the last X-Forwarded-For entry: entries before it are written by the client and can be forged.
 * Requests that carry X-Forwarded-For while HOOT_TRUST_PROXY is off most likely come through a proxy hoot was
 * not told about, where every client shares the proxy's address: given a logger, this warns once per logger.
 */
export interface AddressSource {
  requestIP(request: Request): { address: string } | null;
}

interface WarnLogger {
  warn(fields: object, message: string): void;
}

const warned = new WeakSet<WarnLogger>();

/** The client address of `request`. */
export function clientAddress(request: Request, server: AddressSource | null, trustProxy: boolean, logger?: WarnLogger): string {
  const forwarded = request.headers.get("x-forwarded-for");
  if (trustProxy) {
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last) return last;
  } else if (forwarded !== null && logger && !warned.has(logger)) {
    warned.add(logger);
    logger.warn(
      { event: "forwarded_for_ignored" },
      "requests carry X-Forwarded-For but HOOT_TRUST_PROXY is off: every client behind that proxy shares one address for rate limits; set " +
        "HOOT_TRUST_PROXY=true if hoot runs behind a proxy you control",
    );
  }
  return server?.requestIP(request)?.address ?? "unknown";
}

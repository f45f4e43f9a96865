/**
 * The caller's address, for per-address limits. Behind a proxy you run (HOOT_TRUST_PROXY), the address the
 * proxy saw is the last X-Forwarded-For entry: entries before it are written by the client and can be forged.
 */
export interface AddressSource {
  requestIP(request: Request): { address: string } | null;
}

/** The client address of `request`. */
export function clientAddress(request: Request, server: AddressSource | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}

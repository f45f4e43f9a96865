/**
 * A session's three clocks: the deadline to authenticate after connecting, the token's expiry (only with
 * `closeAtTokenExpiry`; re-authenticating pushes it back), and the longest lifetime after the first
 * authentication. Each fires at most once, and `clear()` (the socket's close) stops all of them.
 */
export class SessionTimers {
  private auth: ReturnType<typeof setTimeout> | null = null;
  private expiry: ReturnType<typeof setTimeout> | null = null;
  private lifetime: ReturnType<typeof setTimeout> | null = null;

  /** Starts the deadline to authenticate. */
  startAuthDeadline(ms: number, onTimeout: () => void): void {
    this.auth = setTimeout(onTimeout, ms);
  }

  /** The socket authenticated: the deadline to do so no longer applies. */
  stopAuthDeadline(): void {
    if (this.auth) clearTimeout(this.auth);
    this.auth = null;
  }

  /** (Re)arms the token's expiry: `expiresAt` in seconds since the epoch, plus the clock tolerance. */
  armExpiry(expiresAt: number, toleranceSeconds: number, onExpiry: () => void): void {
    if (this.expiry) clearTimeout(this.expiry);
    const ms = Math.max(0, (expiresAt + toleranceSeconds) * 1000 - Date.now());
    // setTimeout caps at ~24.8 days; tokens live at most a day, so this never overflows.
    this.expiry = setTimeout(onExpiry, ms);
  }

  /** Starts the longest lifetime, once: a later call (a re-authentication) leaves the first one running. */
  startLifetime(ms: number, onEnd: () => void): void {
    this.lifetime ??= setTimeout(onEnd, ms);
  }

  /** Stops every clock. */
  clear(): void {
    if (this.auth) clearTimeout(this.auth);
    if (this.expiry) clearTimeout(this.expiry);
    if (this.lifetime) clearTimeout(this.lifetime);
  }
}

/**
 * A raw websocket client for the /v1/realtime tests: the upgrade with a bearer header or the browsers'
 * subprotocols, every event queued, a wait for the next event of a type, and how the socket closed.
 */
export type Event = Record<string, any>;

// Bun's WebSocket also takes upgrade headers; the DOM typing, which is loaded too, only knows protocols.
const BunWebSocket = WebSocket as unknown as new (url: string, options: import("bun").WebSocketOptions) => WebSocket;

export class RtProbe {
  readonly events: Event[] = [];
  private cursor = 0;
  private wake: (() => void) | null = null;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      this.events.push(JSON.parse(String(e.data)));
      this.wake?.();
    };
    this.closed = new Promise((resolve) => {
      ws.onclose = (e) => {
        resolve({ code: e.code, reason: e.reason });
        this.wake?.();
      };
    });
  }

  /** Opens `${httpUrl}/v1/realtime` with a bearer token, or (`protocols`) the subprotocols a browser offers. */
  static async open(httpUrl: string, auth: { token?: string; protocols?: string[] }, query = "?model=hoot"): Promise<RtProbe> {
    const url = `${httpUrl.replace(/^http/, "ws")}/v1/realtime${query}`;
    const ws = new BunWebSocket(url, {
      ...(auth.token ? { headers: { Authorization: `Bearer ${auth.token}` } } : {}),
      ...(auth.protocols ? { protocols: auth.protocols } : {}),
    });
    const probe = new RtProbe(ws);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("websocket failed to open"));
    });
    return probe;
  }

  send(event: Event | string): void {
    this.ws.send(typeof event === "string" ? event : JSON.stringify(event));
  }

  /** The next event (after those already taken) of `type` (or matching), skipping others; throws after `ms`. */
  async next(match: string | ((e: Event) => boolean), ms = 10_000): Promise<Event> {
    const test = typeof match === "string" ? (e: Event) => e.type === match : match;
    const deadline = Date.now() + ms;
    for (;;) {
      while (this.cursor < this.events.length) {
        const e = this.events[this.cursor++]!;
        if (test(e)) return e;
      }
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`socket closed while waiting; got ${JSON.stringify(this.events.slice(-3))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; last events ${JSON.stringify(this.events.slice(-3)).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** Every event up to and including the next one of `type`. */
  async until(type: string, ms = 15_000): Promise<Event[]> {
    const from = this.cursor;
    await this.next(type, ms);
    return this.events.slice(from, this.cursor);
  }

  close(): void {
    this.ws.close();
  }
}

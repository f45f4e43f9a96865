/**
 * A raw websocket client for protocol tests: queues every message, lets a test wait for the next one that
 * matches, and records how the socket closed.
 */
export type Msg = Record<string, any>;

// Bun's WebSocket also takes upgrade headers; the DOM typing, which is loaded too, only knows protocols.
const BunWebSocket = WebSocket as unknown as new (url: string, options: import("bun").WebSocketOptions) => WebSocket;

/**
 * A websocket whose JSON messages are queued: a test waits for the next one that matches, skipping others, and
 * sees how the socket closed. The /interact probe below and the /v1/realtime probe (test/realtime/helpers) build on it.
 */
export class QueuedSocket {
  readonly messages: Msg[] = [];
  private cursor = 0;
  private wake: (() => void) | null = null;
  readonly closed: Promise<{ code: number; reason: string }>;

  protected constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      this.messages.push(JSON.parse(String(e.data)));
      this.wake?.();
    };
    this.closed = new Promise((resolve) => {
      ws.onclose = (e) => {
        resolve({ code: e.code, reason: e.reason });
        this.wake?.();
      };
    });
  }

  /** Opens `url` (with Bun's upgrade `options`: headers, protocols) and resolves once it is open. */
  protected static async connect<T extends QueuedSocket>(make: (ws: WebSocket) => T, url: string, options?: import("bun").WebSocketOptions): Promise<T> {
    const ws = options ? new BunWebSocket(url, options) : new WebSocket(url);
    const probe = make(ws);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("websocket failed to open"));
    });
    return probe;
  }

  send(message: Msg | string): void {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** How many messages have been taken by `next` so far. */
  protected get taken(): number {
    return this.cursor;
  }

  /** The next message (after those already taken) matching `match`, skipping others; throws after `ms`. */
  async next(match: (m: Msg) => boolean = () => true, ms = 5000): Promise<Msg> {
    const deadline = Date.now() + ms;
    for (;;) {
      while (this.cursor < this.messages.length) {
        const m = this.messages[this.cursor++]!;
        if (match(m)) return m;
      }
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`socket closed while waiting; got ${JSON.stringify(this.messages.slice(-3))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; last messages ${JSON.stringify(this.messages.slice(-3)).slice(0, 2000)}`);
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

  close(): void {
    this.ws.close();
  }
}

export class WsProbe extends QueuedSocket {
  /** Connects to `${httpUrl}/interact`, with `headers` on the upgrade request (as native clients send them). */
  static async open(httpUrl: string, headers?: Record<string, string>): Promise<WsProbe> {
    return QueuedSocket.connect((ws) => new WsProbe(ws), `${httpUrl.replace(/^http/, "ws")}/interact`, headers ? { headers } : undefined);
  }

  /** Sends a request and waits for the response (or error response) with its uid. */
  async request(kind: string, fields: Msg = {}, type = "request"): Promise<Msg> {
    const uid = crypto.randomUUID();
    this.send({ type, kind, uid, client_start_time: new Date().toISOString(), ...fields });
    return this.next((m) => m.uid === uid && m.type === "response");
  }

  /** Sends an interact and collects its whole stream up to and including the close. */
  async interact(text: string, fields: Msg = {}, ms = 10_000): Promise<{ uid: string; events: Msg[] }> {
    const uid = crypto.randomUUID();
    this.send({ type: "stream", kind: "interact", uid, client_start_time: new Date().toISOString(), text, context: {}, audio_output: false, ...fields });
    return { uid, events: await this.collect(uid, ms) };
  }

  /** Every message with `uid` until its stream close. */
  async collect(uid: string, ms = 10_000): Promise<Msg[]> {
    const events: Msg[] = [];
    for (;;) {
      const m = await this.next((x) => x.uid === uid, ms);
      events.push(m);
      if (m.type === "stream" && m.kind === "close") return events;
      if (m.type === "response") return events;
    }
  }
}

/** Opens a socket, authenticates with `token`, and sets `config`. */
export async function openSession(httpUrl: string, token: string, config: Msg = { prompt: "You are Ollie the owl, a kind friend." }): Promise<WsProbe> {
  const probe = await WsProbe.open(httpUrl);
  const auth = await probe.request("authenticate", { access_token: token });
  if (auth.kind !== "authenticate") throw new Error(`authenticate failed: ${JSON.stringify(auth)}`);
  const conf = await probe.request("set_configuration", { config });
  if (conf.kind !== "set_configuration") throw new Error(`configure failed: ${JSON.stringify(conf)}`);
  return probe;
}

/**
 * The player's side of the interact websocket. Logs in with a service key + federated id, authenticates
 * and configures the socket, refreshes the token 5 minutes before it expires (re-login, then re-authenticate
 * on the open socket), reconnects after a dropped connection, and exposes each interaction as an async
 * iterator of typed events with `interrupt()`.
 * @example
 *   const client = new InteractClient({ baseUrl, apiKey: SERVICE_KEY, federatedId, config: { prompt: "You are Ollie the owl." } });
 *   await client.connect();
 *   for await (const event of client.interact("Hi Ollie!")) if (event.event === "text") process.stdout.write(event.text);
 *   client.close();
 */
import { login } from "./http.ts";

export type InteractEvent =
  | { event: "interaction_started" }
  | { event: "text"; text: string }
  | { event: "audio"; audio: string; mime_type: string; sample_rate: number; seq: number; text: string }
  | { event: "data"; data: Record<string, unknown> }
  | { event: "safety_policy"; category: string; action: string }
  | { event: "text_complete"; text: string }
  | { event: "audio_complete" }
  | { event: "interaction_complete" }
  | { event: "interaction_error"; error: string; code: string };

export interface InteractClientOptions {
  /** The HTTP base URL (`https://host`, or `https://host/api`); the socket is `/interact` on the same host. */
  baseUrl: string;
  apiKey: string;
  federatedId: string;
  config: Record<string, unknown>;
  /** Seconds before expiry to refresh the token (default 300). */
  refreshLeadSeconds?: number;
  /** Reconnect after an unexpected close (default true). */
  reconnect?: boolean;
}

/** One interaction's events as an async iterator, plus `interrupt()`. */
export interface Interaction extends AsyncIterable<InteractEvent> {
  readonly uid: string;
  interrupt(atCharacter?: number): void;
}

type Message = Record<string, unknown> & { type?: string; kind?: string; uid?: string };

export class InteractClient {
  private ws: WebSocket | null = null;
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;
  private closedByUser = false;
  private readonly waiting = new Map<string, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  private readonly streams = new Map<string, (m: Message | null) => void>();
  private connecting: Promise<void> | null = null;

  constructor(private readonly options: InteractClientOptions) {}

  /** Logs in, opens the socket, authenticates and configures. */
  connect(): Promise<void> {
    this.closedByUser = false;
    if (this.ws?.readyState === WebSocket.OPEN && !this.connecting) return Promise.resolve();
    return (this.connecting ??= this.open().finally(() => (this.connecting = null)));
  }

  /** Sends `text` ("." to let the character speak first) and yields the reply's events until the stream closes. */
  interact(text: string, options: { context?: Record<string, string | number | boolean>; audioOutput?: boolean } = {}): Interaction {
    const uid = crypto.randomUUID();
    const queue: (Message | null)[] = [];
    let wake: (() => void) | null = null;
    this.streams.set(uid, (m) => {
      queue.push(m);
      wake?.();
    });
    const send = () => this.send({ type: "stream", kind: "interact", uid, client_start_time: new Date().toISOString(), text, context: options.context ?? {}, audio_output: options.audioOutput ?? true });
    const ready = this.connect().then(send);
    const streams = this.streams;
    const client = this;
    return {
      uid,
      interrupt(atCharacter?: number) {
        client.send({ type: "request", kind: "interrupt", uid: crypto.randomUUID(), target_uid: uid, ...(atCharacter !== undefined ? { at_character: atCharacter } : {}) });
      },
      async *[Symbol.asyncIterator]() {
        try {
          try {
            await ready;
          } catch (error) {
            yield { event: "interaction_error", error: (error as Error).message, code: "connection_failed" };
            return;
          }
          for (;;) {
            while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
            const m = queue.shift()!;
            if (m === null) {
              yield { event: "interaction_error", error: "the connection was lost", code: "connection_lost" };
              return;
            }
            if (m.kind === "close") return;
            if (m.kind === "error") {
              yield { event: "interaction_error", error: String(m.error), code: String(m.code) };
              // A refused request ends there; a failed stream still sends its close.
              if (m.type === "response") return;
              continue;
            }
            if (typeof m.event === "string") yield m as unknown as InteractEvent;
          }
        } finally {
          streams.delete(uid);
        }
      },
    };
  }

  /** Closes the socket for good. */
  close(): void {
    this.closedByUser = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.ws?.close(1000, "bye");
  }

  private async open(): Promise<void> {
    const token = await this.login();
    const ws = new WebSocket(wsUrl(this.options.baseUrl));
    this.ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("could not open the interact socket"));
    });
    ws.onmessage = (e) => this.dispatch(JSON.parse(String(e.data)) as Message);
    ws.onclose = () => this.dropped(ws);
    try {
      await this.request("authenticate", { access_token: token.access_token });
      await this.request("set_configuration", { config: this.options.config });
    } catch (error) {
      // Refused or dropped before it was ready: close so a later connect() starts afresh.
      ws.close();
      throw error;
    }
    this.scheduleRefresh(token.expires_in);
  }

  private login() {
    return login(this.options.baseUrl, { api_key: this.options.apiKey, federated_id: this.options.federatedId });
  }

  private scheduleRefresh(expiresIn: number): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    const lead = this.options.refreshLeadSeconds ?? 300;
    this.refreshTimer = setTimeout(() => void this.refresh(), Math.max(1, expiresIn - lead) * 1000);
    // The refresh alone must not keep a finished program running.
    (this.refreshTimer as { unref?: () => void }).unref?.();
  }

  private async refresh(): Promise<void> {
    try {
      const token = await this.login();
      await this.request("authenticate", { access_token: token.access_token });
      this.scheduleRefresh(token.expires_in);
    } catch {
      // Try again shortly; the socket stays up on the old token until it expires.
      this.refreshTimer = setTimeout(() => void this.refresh(), 5000);
    }
  }

  private dropped(ws: WebSocket): void {
    if (ws !== this.ws) return;
    this.ws = null;
    for (const end of this.streams.values()) end(null);
    this.streams.clear();
    // Requests still waiting for an answer will never get one on this socket.
    for (const waiter of this.waiting.values()) waiter.reject(new Error("the connection was lost"));
    this.waiting.clear();
    if (this.closedByUser || this.options.reconnect === false) return;
    const retry = (delay: number) =>
      setTimeout(() => {
        if (this.closedByUser) return;
        this.connect().catch(() => retry(Math.min(delay * 2, 10_000)));
      }, delay);
    retry(200);
  }

  private request(kind: string, fields: Record<string, unknown>): Promise<Message> {
    const uid = crypto.randomUUID();
    return new Promise((resolve, reject) => {
      this.waiting.set(uid, { resolve: (m) => (m.kind === "error" ? reject(new Error(String(m.error))) : resolve(m)), reject });
      this.send({ type: "request", kind, uid, client_start_time: new Date().toISOString(), ...fields });
    });
  }

  private dispatch(m: Message): void {
    const uid = m.uid ?? "";
    const waiter = this.waiting.get(uid);
    if (waiter && m.type === "response") {
      this.waiting.delete(uid);
      waiter.resolve(m);
      return;
    }
    this.streams.get(uid)?.(m);
  }

  private send(message: Message): void {
    this.ws?.send(JSON.stringify(message));
  }
}

/** `https://host/api` or `https://host` -> `wss://host/interact`. */
export function wsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "").replace(/\/api$/, "").replace(/^http/, "ws")}/interact`;
}

/**
 * The player's side of the interact websocket. Logs in with a service key + federated id, authenticates
 * and configures the socket, refreshes the token 5 minutes before it expires (re-login, then re-authenticate
 * on the open socket), reconnects after a dropped connection, and exposes each interaction as an async
 * iterator of typed events with `interrupt()`. Leaving the iteration early (`break`) ends the interaction on
 * the server with the stream's own `close`.
 * @example
 *   const client = new InteractClient({ baseUrl, apiKey: SERVICE_KEY, federatedId, config: { prompt: "You are Ollie the owl." } });
 *   await client.connect();
 *   for await (const event of client.interact("Hi Ollie!")) if (event.event === "text") process.stdout.write(event.text);
 *   client.close();
 */
import type { ErrorCode } from "../errors.ts";
import type { InteractEventPayload } from "../interact/protocol.ts";
import { login } from "./http.ts";

/** Codes the client itself reports when it cannot reach the server. */
export type ClientErrorCode = "connection_failed" | "connection_lost";

/**
 * One event of an interaction, as the server sends it (the wire types come from the server's own schemas,
 * imported as types only), plus the client's own `interaction_error` when the connection fails or drops.
 */
export type InteractEvent =
  | Exclude<InteractEventPayload, { event: "interaction_error" }>
  | { event: "interaction_error"; error: string; code: ErrorCode | ClientErrorCode };

/** One `audio` event: its audio, `duration_sec`, and the speech marks when asked for (PROTOCOL.md section 6). */
export type AudioEvent = Extract<InteractEvent, { event: "audio" }>;
/** One word of an audio event's `subtitles`, timed from the start of that event's audio. */
export type SubtitleMark = NonNullable<AudioEvent["subtitles"]>[number];
/** One mouth shape of an audio event's `visemes`, timed from the start of that event's audio. */
export type VisemeMark = NonNullable<AudioEvent["visemes"]>[number];
/** The 15 Oculus/Meta viseme ids: `sil PP FF TH DD kk CH SS nn RR aa E I O U`. */
export type Viseme = VisemeMark["viseme"];

export interface InteractOptions {
  context?: Record<string, string | number | boolean>;
  audioOutput?: boolean;
  /** Word timings on this turn's audio events (default: the configuration's `subtitles`, else off). */
  subtitles?: boolean;
  /** Mouth shapes on this turn's audio events (default: the configuration's `visemes`, else off). */
  visemes?: boolean;
}

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

/** A stream or a request in flight, bound to the socket it was sent on: only that socket's loss ends it. */
interface Stream {
  socket: WebSocket | null;
  push(message: Message | null): void;
}
interface Waiter {
  socket: WebSocket;
  resolve(message: Message): void;
  reject(error: Error): void;
}

export class InteractClient {
  private ws: WebSocket | null = null;
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;
  private closedByUser = false;
  private readonly waiting = new Map<string, Waiter>();
  private readonly streams = new Map<string, Stream>();
  private connecting: Promise<void> | null = null;

  constructor(private readonly options: InteractClientOptions) {}

  /** Logs in, opens the socket, authenticates and configures (again after `close()`). */
  connect(): Promise<void> {
    this.closedByUser = false;
    if (this.ws?.readyState === WebSocket.OPEN && !this.connecting) return Promise.resolve();
    return (this.connecting ??= this.open().finally(() => (this.connecting = null)));
  }

  /**
   * Sends `text` ("." to let the character speak first) and yields the reply's events until the stream closes.
   * `subtitles` / `visemes` turn speech marks on (true) or off (false) for this turn (default: the configuration's).
   */
  interact(text: string, options: InteractOptions = {}): Interaction {
    const uid = crypto.randomUUID();
    const queue: (Message | null)[] = [];
    let wake: (() => void) | null = null;
    const stream: Stream = {
      socket: null,
      push: (m) => {
        queue.push(m);
        wake?.();
      },
    };
    this.streams.set(uid, stream);
    const ready = this.connect().then(() => {
      // Bound to the socket it goes out on, so a late close event of an earlier socket cannot end it.
      stream.socket = this.ws;
      if (
        !this.send({
          type: "stream",
          kind: "interact",
          uid,
          client_start_time: new Date().toISOString(),
          text,
          context: options.context ?? {},
          audio_output: options.audioOutput ?? true,
          ...(options.subtitles !== undefined ? { subtitles: options.subtitles } : {}),
          ...(options.visemes !== undefined ? { visemes: options.visemes } : {}),
        })
      )
        stream.push(null);
    });
    const streams = this.streams;
    const client = this;
    return {
      uid,
      interrupt(atCharacter?: number) {
        client.send({
          type: "request",
          kind: "interrupt",
          uid: crypto.randomUUID(),
          target_uid: uid,
          ...(atCharacter !== undefined ? { at_character: atCharacter } : {}),
        });
      },
      async *[Symbol.asyncIterator]() {
        let ended = false;
        try {
          try {
            await ready;
          } catch (error) {
            ended = true;
            yield { event: "interaction_error", error: (error as Error).message, code: "connection_failed" };
            return;
          }
          for (;;) {
            while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
            const m = queue.shift()!;
            if (m === null) {
              ended = true;
              yield { event: "interaction_error", error: "the connection was lost", code: "connection_lost" };
              return;
            }
            if (m.kind === "close") {
              ended = true;
              return;
            }
            if (m.kind === "error") {
              // A refused request ends there; a failed stream still sends its close.
              ended = m.type === "response";
              yield { event: "interaction_error", error: String(m.error), code: m.code as ErrorCode };
              if (ended) return;
              continue;
            }
            if (typeof m.event === "string") yield m as unknown as InteractEvent;
          }
        } finally {
          streams.delete(uid);
          // The app left before the stream's close (a `break`): end it on the server too (streams are
          // symmetrical), so the reply stops at once and only what was sent is remembered.
          if (!ended && stream.socket !== null && stream.socket === client.ws) client.send({ type: "stream", kind: "close", uid });
        }
      },
    };
  }

  /** Closes the socket; a later `connect()` or `interact()` opens a new one. */
  close(): void {
    this.closedByUser = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    const ws = this.ws;
    // Forget the socket now: its close event comes later, maybe after a new socket is already in use.
    this.ws = null;
    ws?.close(1000, "bye");
  }

  private async open(): Promise<void> {
    const token = await this.login();
    const ws = new WebSocket(wsUrl(this.options.baseUrl));
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("could not open the interact socket"));
    });
    this.ws = ws;
    ws.onmessage = (e) => this.dispatch(JSON.parse(String(e.data)) as Message);
    ws.onclose = () => this.dropped(ws);
    try {
      await this.request("authenticate", { access_token: token.access_token });
      await this.request("set_configuration", { config: this.options.config });
    } catch (error) {
      // Refused or dropped before it was ready: close so a later connect() starts afresh.
      if (this.ws === ws) this.ws = null;
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
      if (this.closedByUser) return;
      // Try again shortly; the socket stays up on the old token until it expires.
      this.refreshTimer = setTimeout(() => void this.refresh(), 5000);
    }
  }

  /** `ws` closed: end what was sent on it; reconnect if it was the current socket and nobody asked to close. */
  private dropped(ws: WebSocket): void {
    for (const [uid, stream] of this.streams) {
      if (stream.socket !== ws) continue;
      this.streams.delete(uid);
      stream.push(null);
    }
    // Requests still waiting for an answer will never get one on this socket.
    for (const [uid, waiter] of this.waiting) {
      if (waiter.socket !== ws) continue;
      this.waiting.delete(uid);
      waiter.reject(new Error("the connection was lost"));
    }
    if (ws !== this.ws) return;
    this.ws = null;
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
    const socket = this.ws;
    if (!socket) return Promise.reject(new Error("the connection was lost"));
    return new Promise((resolve, reject) => {
      this.waiting.set(uid, { socket, resolve: (m) => (m.kind === "error" ? reject(new Error(String(m.error))) : resolve(m)), reject });
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
    this.streams.get(uid)?.push(m);
  }

  /** Sends on the open socket; false when there is none. */
  private send(message: Message): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }
}

/** `https://host/api` or `https://host` -> `wss://host/interact`. */
export function wsUrl(baseUrl: string): string {
  return `${baseUrl
    .replace(/\/+$/, "")
    .replace(/\/api$/, "")
    .replace(/^http/, "ws")}/interact`;
}

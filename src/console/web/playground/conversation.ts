/**
 * One playground conversation over the real `/interact` websocket, speaking the protocol exactly as an app
 * does: `authenticate` with a player token, `set_configuration`, then `interact` streams, `interrupt`
 * requests, and every message the server sends handed to `onMessage` with the time it arrived.
 */

export type ServerMessage = Record<string, unknown> & { type?: string; kind?: string; uid?: string; event?: string };

export interface PlaygroundConfig {
  prompt: string;
  safety_policy?: string;
  voice_profile?: { voice_id: string };
  audio_format: "mp3";
  /** Speech marks on every audio event, for the captions and the mouth. */
  subtitles: boolean;
  visemes: boolean;
}

const REQUEST_TIMEOUT_MS = 15_000;

/** A new unique id for a request or stream. */
export function newUid(): string {
  return crypto.randomUUID();
}

export class Conversation {
  private socket: WebSocket | null = null;
  private waiting = new Map<string, { resolve: (m: ServerMessage) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly onMessage: (message: ServerMessage, at: number) => void,
    private readonly onClosed: (code: number, reason: string) => void,
  ) {}

  /** Opens the socket, authenticates and configures; rejects with the server's sentence. */
  async open(token: string, config: PlaygroundConfig): Promise<void> {
    const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/interact`;
    const socket = new WebSocket(url);
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error("The conversation socket could not be opened."));
    });
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => {};
    socket.onclose = (event) => {
      for (const w of this.waiting.values()) w.reject(new Error(`The socket closed (${event.code}).`));
      this.waiting.clear();
      this.onClosed(event.code, event.reason);
    };
    await this.request("authenticate", { access_token: token });
    await this.configure(config);
  }

  /** Replaces the whole configuration. */
  async configure(config: PlaygroundConfig): Promise<void> {
    await this.request("set_configuration", { config });
  }

  /** Starts an interaction; returns its uid. `"."` asks the character to speak first. */
  interact(text: string, audioOutput: boolean): string {
    const uid = newUid();
    this.send({ type: "stream", kind: "interact", uid, client_start_time: new Date().toISOString(), text, audio_output: audioOutput });
    return uid;
  }

  /** Stops the interaction `targetUid` at once. */
  interrupt(targetUid: string): Promise<ServerMessage> {
    return this.request("interrupt", { target_uid: targetUid });
  }

  close(): void {
    this.socket?.close(1000, "hung up");
    this.socket = null;
  }

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  private request(kind: string, fields: Record<string, unknown>): Promise<ServerMessage> {
    const uid = newUid();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(uid);
        reject(new Error(`No answer to ${kind} in time.`));
      }, REQUEST_TIMEOUT_MS);
      this.waiting.set(uid, {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.send({ type: "request", kind, uid, client_start_time: new Date().toISOString(), ...fields });
    });
  }

  private send(message: Record<string, unknown>): void {
    if (this.socket?.readyState !== WebSocket.OPEN) throw new Error("The conversation is not connected.");
    this.socket.send(JSON.stringify(message));
  }

  private receive(data: unknown): void {
    const at = performance.now();
    let message: ServerMessage;
    try {
      message = JSON.parse(String(data)) as ServerMessage;
    } catch {
      return;
    }
    this.onMessage(message, at);
    if (message.type === "response" && typeof message.uid === "string") {
      const waiter = this.waiting.get(message.uid);
      if (!waiter) return;
      this.waiting.delete(message.uid);
      if (message.kind === "error") waiter.reject(new Error(String(message.error ?? "The request failed.")));
      else waiter.resolve(message);
    }
  }
}

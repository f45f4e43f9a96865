/**
 * One interact websocket: a small state machine (connected -> authenticated -> configured) that checks the
 * credential before any work, answers every request with its uid, and runs at most one turn at a time.
 * Rules it keeps:
 *  - only `authenticate` and `ping` before authentication ("session is not authenticated");
 *  - `interact` only after a configuration ("session is not configured");
 *  - a new `interact`, or `interrupt`, stops the running turn at once; its stream still ends with `close`;
 *  - the token's expiry is enforced by a timer (4401) that re-authentication pushes back;
 *  - nothing thrown in here escapes: every failure becomes an error message on the socket.
 */
import type { Caller } from "../auth/caller.ts";
import type { Logger } from "../log.ts";
import type { Engine } from "../engine/types.ts";
import { checkConfig, checkRequest, deepMerge, isKnownKind, type RequestKind, type RequestOf, type SessionConfig } from "./model.ts";
import { CloseCode, errorResponse, fatal, response, streamClose, streamError, type RequestStamp } from "./protocol.ts";
import { normaliseTimestamp, nowMicros } from "./times.ts";
import { runTurn, type RunningTurn, type TurnDeps } from "./turn.ts";

/** The transport a session writes to (Bun's ServerWebSocket in production). */
export interface SessionSocket {
  /** Bun's send: bytes sent, -1 when queued under backpressure, 0 when dropped. */
  send(data: string): number;
  close(code: number, reason?: string): void;
}

export type PlayerCaller = Extract<Caller, { kind: "player" }>;

export interface SessionDeps extends TurnDeps {
  engine: Engine;
  logger: Logger;
  /** Resolves a player access token (signature, expiry, revocation). */
  authenticate(token: string): Promise<Caller | null>;
  /** Checks what the schema cannot (known voices, policies, utilities); a sentence naming the field, or null. */
  validateConfig(config: SessionConfig): string | null;
  /** Called when a player authenticates; returns false when the player already has too many sockets. */
  admit(session: InteractSession, playerId: number): boolean;
  limits: { authTimeoutMs: number; messagesPerMinute: number; maxInteractChars: number; clockToleranceSeconds: number };
}

type State = "connected" | "authenticated" | "configured" | "closed";

export class InteractSession {
  state: State = "connected";
  player: PlayerCaller | null = null;
  private config: SessionConfig | null = null;
  private turn: RunningTurn | null = null;
  private authTimer: ReturnType<typeof setTimeout> | null = null;
  private expiryTimer: ReturnType<typeof setTimeout> | null = null;
  private windowStart = Date.now();
  private windowCount = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    private readonly socket: SessionSocket,
    private readonly deps: SessionDeps,
  ) {
    this.authTimer = setTimeout(() => this.fail("authenticate within the time limit after connecting", "auth_timeout", CloseCode.policy), deps.limits.authTimeoutMs);
  }

  /**
   * Handles one incoming message (already JSON-parsed by the transport when it could be). Messages are
   * handled one after another in arrival order, so a client that sends authenticate and set_configuration
   * back to back is answered as if it had waited; turns run in the background so `interrupt` is not queued
   * behind them.
   */
  receive(raw: unknown): Promise<void> {
    const serverStart = nowMicros();
    if (this.state === "closed") return this.queue;
    if (!this.countMessage()) return this.queue;
    this.queue = this.queue.then(() => this.process(raw, serverStart));
    return this.queue;
  }

  private async process(raw: unknown, serverStart: number): Promise<void> {
    if (this.state === "closed") return;
    try {
      await this.dispatch(raw, serverStart);
    } catch (error) {
      // Never let a throw vanish inside the websocket handler: answer it and keep the socket usable.
      this.deps.logger.error({ event: "ws_handler_error", session: this.id, err: (error as Error).message }, "interact handler failed");
      const uid = typeof (raw as { uid?: unknown })?.uid === "string" ? (raw as { uid: string }).uid : "";
      this.send(errorResponse({ uid, clientStartTime: null, serverStart }, "internal error", "internal"));
    }
  }

  /** Ends the running turn (its close is sent), says why (`{type:"error"}`), and closes the socket with `code`. */
  async shutdown(code: number, error: string, errorCode: string): Promise<void> {
    if (this.state === "closed") return;
    await this.turn?.stop();
    if ((this.state as State) === "closed") return;
    this.send(fatal(error, errorCode));
    this.socket.close(code, errorCode);
    this.closed();
  }

  /** Called by the transport once the socket is gone: stop work and timers. */
  closed(): void {
    this.state = "closed";
    if (this.authTimer) clearTimeout(this.authTimer);
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.turn?.abort();
  }

  private async dispatch(raw: unknown, serverStart: number): Promise<void> {
    const message = typeof raw === "string" ? parseJson(raw) : raw;
    const uid = typeof (message as { uid?: unknown })?.uid === "string" ? (message as { uid: string }).uid : "";
    const rawTime = (message as { client_start_time?: unknown })?.client_start_time;
    const stamp: RequestStamp = { uid, clientStartTime: null, serverStart };
    if (message === undefined || typeof message !== "object" || message === null || Array.isArray(message)) {
      this.send(errorResponse(stamp, message === undefined ? "the message is not valid JSON" : "the message must be a JSON object", "invalid_message"));
      return;
    }
    if (rawTime !== undefined) {
      const normalised = typeof rawTime === "string" ? normaliseTimestamp(rawTime) : null;
      if (normalised === null) {
        this.send(errorResponse(stamp, 'field "client_start_time" must be an ISO 8601 UTC timestamp', "invalid_message"));
        return;
      }
      stamp.clientStartTime = normalised;
    }
    const kind = (message as { kind?: unknown }).kind;
    // A refused interact is a stream: it gets a stream error and its close, like every interact series.
    const refuse = (error: string, code: string) => {
      if (kind === "interact") {
        this.send(streamError(stamp, error, code));
        this.send(streamClose(stamp));
      } else {
        this.send(errorResponse(stamp, error, code));
      }
    };
    if (kind !== "authenticate" && kind !== "ping" && this.state === "connected") {
      refuse("session is not authenticated", "not_authenticated");
      return;
    }
    if (!isKnownKind(kind)) {
      refuse(typeof kind === "string" ? "unknown request kind" : 'field "kind" is required', "unknown_kind");
      return;
    }
    const checked = checkRequest(kind, message);
    if (!checked.ok) {
      refuse(checked.error, "invalid_message");
      return;
    }
    if (!stamp.uid) {
      refuse('field "uid" is required', "invalid_message");
      return;
    }
    await this.handle(kind, checked.value, stamp);
  }

  private async handle(kind: RequestKind, message: RequestOf<RequestKind>, stamp: RequestStamp): Promise<void> {
    switch (kind) {
      case "ping":
        this.send(response("ping", stamp));
        return;
      case "authenticate":
        return this.onAuthenticate(message as RequestOf<"authenticate">, stamp);
      case "set_configuration":
        return this.onConfigure("set_configuration", (message as RequestOf<"set_configuration">).config, stamp);
      case "merge_configuration":
        return this.onConfigure("merge_configuration", deepMerge((this.config ?? {}) as Record<string, unknown>, (message as RequestOf<"merge_configuration">).config), stamp);
      case "get_configuration":
        this.send(response("get_configuration", stamp, { config: this.config }));
        return;
      case "interrupt": {
        const request = message as RequestOf<"interrupt">;
        const running = this.turn?.uid === request.target_uid ? this.turn : null;
        if (running) await running.stop(request.at_character);
        this.send(response("interrupt", stamp, { target_uid: request.target_uid, interrupted: running !== null }));
        return;
      }
      case "interact":
        return this.onInteract(message as RequestOf<"interact">, stamp);
    }
  }

  private async onAuthenticate(message: RequestOf<"authenticate">, stamp: RequestStamp): Promise<void> {
    const caller = await this.deps.authenticate(message.access_token);
    if (this.state === "closed") return;
    if (!caller || caller.kind !== "player" || (this.player && caller.playerId !== this.player.playerId)) {
      // Refused, but the socket stays: a fresh socket may try again until the authentication deadline, and a
      // live session keeps its current token until that expires.
      this.send(errorResponse(stamp, "authentication failed: the token is missing, invalid, expired or revoked", "unauthorized"));
      return;
    }
    if (!this.player && !this.deps.admit(this, caller.playerId)) {
      this.fail("this player has too many open sockets", "too_many_sockets", CloseCode.rateLimited);
      return;
    }
    this.player = caller;
    if (this.state === "connected") this.state = "authenticated";
    if (this.authTimer) clearTimeout(this.authTimer);
    this.authTimer = null;
    this.armExpiry(caller.expiresAt);
    this.send(response("authenticate", stamp));
  }

  private armExpiry(expiresAt: number): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    const ms = Math.max(0, (expiresAt + this.deps.limits.clockToleranceSeconds) * 1000 - Date.now());
    // setTimeout caps at ~24.8 days; tokens live an hour, so this never overflows.
    this.expiryTimer = setTimeout(() => void this.expire(), ms);
  }

  private async expire(): Promise<void> {
    await this.turn?.stop();
    this.fail("the access token expired; re-authenticate on the socket before it does", "token_expired", CloseCode.tokenExpired);
  }

  private onConfigure(kind: "set_configuration" | "merge_configuration", value: unknown, stamp: RequestStamp): void {
    const checked = checkConfig(value);
    if (!checked.ok) {
      this.send(errorResponse(stamp, checked.error, "invalid_configuration"));
      return;
    }
    const problem = this.deps.validateConfig(checked.value);
    if (problem) {
      this.send(errorResponse(stamp, problem, "invalid_configuration"));
      return;
    }
    this.config = checked.value;
    this.state = "configured";
    this.send(response(kind, stamp));
  }

  private async onInteract(message: RequestOf<"interact">, stamp: RequestStamp): Promise<void> {
    const refuse = (error: string, code: string) => {
      this.send(streamError(stamp, error, code));
      this.send(streamClose(stamp));
    };
    if (this.state !== "configured" || !this.config || !this.player) {
      refuse("session is not configured", "not_configured");
      return;
    }
    const text = message.text;
    const problem = text.trim() === "" ? 'field "text" must not be empty' : text.length > this.deps.limits.maxInteractChars ? `field "text" is longer than ${this.deps.limits.maxInteractChars} characters` : null;
    if (problem) {
      refuse(problem, "invalid_message");
      return;
    }
    // A new interact interrupts the running one first: its stream closes before the new one starts.
    const previous = this.turn;
    if (previous) await previous.stop();
    if ((this.state as State) === "closed") return;
    const turn = runTurn(this.deps, {
      stamp,
      playerId: this.player.playerId,
      sessionId: this.id,
      config: this.config,
      text,
      context: message.context ?? {},
      audioOutput: message.audio_output ?? true,
      send: (data) => this.send(data),
    });
    this.turn = turn;
    void turn.done.then(() => {
      if (this.turn === turn) this.turn = null;
    });
  }

  private countMessage(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    if (++this.windowCount <= this.deps.limits.messagesPerMinute) return true;
    this.fail(`more than ${this.deps.limits.messagesPerMinute} messages in a minute`, "rate_limited", CloseCode.rateLimited);
    return false;
  }

  private fail(error: string, code: string, closeCode: number): void {
    if (this.state === "closed") return;
    this.deps.logger.info({ event: "ws_closed_by_server", session: this.id, code, closeCode }, "closing interact socket");
    // The running stream still ends with its close, then the reason, then the socket closes.
    this.turn?.closeNow();
    this.send(fatal(error, code));
    this.socket.close(closeCode, code);
    this.closed();
  }

  private send(data: string): void {
    if (this.state !== "closed") this.socket.send(data);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

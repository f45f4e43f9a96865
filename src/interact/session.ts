/**
 * One interact websocket as a state machine: connected -> authenticated -> configured -> closed. It checks
 * the credential before any work, answers every request with its uid, and runs at most one turn at a time.
 * It knows nothing of Elysia, the database or the auth module: it gets a socket to write to and small ports
 * (authenticate, admit, history, engine), so its tests run with fakes and no server.
 *
 * Rules it keeps:
 *  - a message over the size limit closes the socket (1009) after `{"type":"error"}` saying so;
 *  - only `authenticate` and `ping` before authentication ("session is not authenticated");
 *  - `interact` only after a configuration ("session is not configured");
 *  - a new `interact`, or `interrupt`, stops the running turn at once; its stream still ends with `close`;
 *  - the client's own stream `close` (or `error`) stops the running turn too, and nothing more is sent with
 *    its uid; a stream end for a uid that is not running is ignored, never answered;
 *  - an authenticated socket outlives its token (the Unity SDK never re-authenticates) unless
 *    `closeAtTokenExpiry` (then 4401 at expiry, pushed back by re-authentication); it lives at most
 *    `maxSessionMs` after its first authentication (4401);
 *  - messages are handled one after another in arrival order, turns run in the background;
 *  - `add_audio` is paid for from the socket's audio budget (audio seconds per second of wall clock), not
 *    the per-minute message count, once authenticated and while few chunks wait to be decoded; a chunk that
 *    is refused counts as a message after all, so a flood of bad chunks is still cut off (4429);
 *  - voice requests (voice.ts) need an authenticated socket; the buffered audio is dropped by `clear_audio`,
 *    `interrupt`, the interact that uses it, and the socket's close (player deletion closes it);
 *  - nothing thrown in here escapes: every failure becomes an error message on the socket.
 */
import type { Engine } from "../engine/index.ts";
import type { EngineLogger } from "../engine/index.ts";
import type { ErrorCode } from "../errors.ts";
import { interactSettings, turnConfig } from "./configuration.ts";
import { BackgroundRuns, configuredUtilities, mergeConfiguration, planUtilities, renderPrompt, runUtilities, setConfiguration, type Configured, type StoredConfigs } from "./configure.ts";
import type { History } from "./history.ts";
import { checkRequest, isKnownKind, type ClientRequest, type RequestOf, type SessionConfig } from "./model.ts";
import { errorResponse, fatal, FATAL, response, streamClose, streamError, type FatalCode, type RequestStamp, type ServerMessage } from "./protocol.ts";
import { normaliseTimestamp, nowMicros } from "./times.ts";
import { runTurn, type RunningTurn } from "./turn.ts";
import { BUILTIN_ONLY, SessionGuard, type SafetyPorts } from "./safety.ts";
import { NO_RECOGNISER, SessionVoice, voiceFailure, type VoicePorts } from "./voice.ts";
import { VoiceInputError } from "../engine/index.ts";
import type { ConfigurationLimits } from "./config-bounds.ts";

/** The transport a session writes to (Bun's ServerWebSocket in production). */
export interface SessionSocket {
  send(data: string): unknown;
  close(code: number, reason?: string): void;
}

/** Who a player token belongs to, as far as the session cares. */
export interface PlayerIdentity {
  playerId: number;
  /** The service account that logged the player in (its revocation closes the socket). */
  serviceAccountId: number;
  /** The player's team (team safety policies and incidents); absent only in tests without one. */
  teamId?: number;
  /** Token expiry, seconds since the epoch. */
  expiresAt: number;
}

export interface SessionLimits {
  authTimeoutMs: number;
  maxMessageBytes: number;
  messagesPerMinute: number;
  maxInteractChars: number;
  clockToleranceSeconds: number;
  /** Close with 4401 when the token expires (otherwise an authenticated socket outlives its token). */
  closeAtTokenExpiry: boolean;
  /** The longest a socket stays open after its first authentication. */
  maxSessionMs: number;
  /** Bounds on the configuration the session holds. */
  configuration: ConfigurationLimits;
  /** `run` requests, and apart `transcribe` requests, that may be working at once (HOOT_WS_MAX_RUNS_AT_ONCE). */
  runsAtOnce: number;
  /** `add_audio` chunks that may wait to be decoded outside the message count (HOOT_WS_MAX_QUEUED_AUDIO_CHUNKS). */
  queuedAudioChunks: number;
}

export interface SessionPorts {
  engine: Pick<Engine, "runTurn" | "voices"> & Partial<Pick<Engine, "runUtilities">>;
  /** The team's stored configurations and utilities (references in configurations). */
  stored?: StoredConfigs;
  history: History;
  logger: EngineLogger;
  /** Resolves a player access token (signature, expiry, revocation); null when it is not a valid player token. */
  authenticate(token: string): Promise<PlayerIdentity | null>;
  /** Called when a session first authenticates; false when the player already has too many sockets (on several nodes, after asking the database). */
  admit(session: InteractSession, playerId: number): boolean | Promise<boolean>;
  /** The language models this server serves, name -> one-line description (get_available_models). */
  models: ReadonlyMap<string, string>;
  limits: SessionLimits;
  /** Team safety policies, incidents and moderation (default: built-in policies only). */
  safety?: SafetyPorts;
  /** Voice input: the recogniser and the buffer and budget settings (default: no recogniser). */
  voice?: VoicePorts;
}

/**
 * By default at most this many `add_audio` chunks wait to be decoded outside the message count; more count as
 * messages (a client far ahead of the decoder is flooding, not streaming).
 */
export const MAX_QUEUED_AUDIO = 64;

export type SessionState = "connected" | "authenticated" | "configured" | "closed";

export class InteractSession {
  private phase: SessionState = "connected";
  private identity: PlayerIdentity | null = null;
  private config: SessionConfig | null = null;
  private turn: RunningTurn | null = null;
  private authTimer: ReturnType<typeof setTimeout> | null = null;
  private expiryTimer: ReturnType<typeof setTimeout> | null = null;
  private lifetimeTimer: ReturnType<typeof setTimeout> | null = null;
  private windowStart = Date.now();
  private windowCount = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly guard: SessionGuard;
  private readonly runs: BackgroundRuns;
  private readonly voice: SessionVoice;
  /** `transcribe` requests waiting for the recogniser (they answer later, like `run`). */
  private readonly transcriptions: BackgroundRuns;
  private queuedAudio = 0;

  constructor(
    readonly id: string,
    private readonly socket: SessionSocket,
    private readonly ports: SessionPorts,
  ) {
    this.guard = new SessionGuard(id, ports.safety ?? BUILTIN_ONLY, ports.logger);
    this.runs = new BackgroundRuns(ports.limits.runsAtOnce);
    this.transcriptions = new BackgroundRuns(ports.limits.runsAtOnce);
    this.voice = new SessionVoice(ports.voice ?? NO_RECOGNISER);
    this.authTimer = setTimeout(() => this.fail("auth_timeout", "authenticate within the time limit after connecting"), ports.limits.authTimeoutMs);
  }

  get state(): SessionState {
    return this.phase;
  }

  /** The authenticated player, or null. */
  get player(): PlayerIdentity | null {
    return this.identity;
  }

  /**
   * Handles one incoming message: raw text (or bytes) from the socket, or a value already parsed by the
   * transport. Messages are handled in arrival order, so a client that sends authenticate and
   * set_configuration back to back is answered as if it had waited; turns run in the background so
   * `interrupt` is not queued behind them.
   */
  receive(message: unknown): Promise<void> {
    const serverStart = nowMicros();
    if (this.phase === "closed") return this.queue;
    const limit = this.ports.limits.maxMessageBytes;
    if (byteLength(message) > limit) {
      this.fail("message_too_large", `the message is larger than the limit of ${limit} bytes`);
      return this.queue;
    }
    const parsed = typeof message === "string" ? parseJson(message) : message instanceof Uint8Array ? { binary: true } : message;
    // An audio chunk is paid for from the audio budget instead (see the rules above).
    const audio = this.phase !== "connected" && isAudioChunk(parsed) && this.queuedAudio < this.ports.limits.queuedAudioChunks;
    if (!audio && !this.countMessage()) return this.queue;
    if (audio) this.queuedAudio++;
    this.queue = this.queue.then(async () => {
      try {
        await this.process(parsed, serverStart, audio);
      } finally {
        if (audio) this.queuedAudio--;
      }
    });
    return this.queue;
  }

  /** Ends the running turn (its close is sent), says why (`{type:"error"}`), and closes the socket. */
  async shutdown(code: FatalCode, error: string): Promise<void> {
    if (this.phase === "closed") return;
    await this.turn?.stop();
    this.fail(code, error);
  }

  /** Called by the transport once the socket is gone: stop work and timers. */
  closed(): void {
    this.phase = "closed";
    if (this.authTimer) clearTimeout(this.authTimer);
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    if (this.lifetimeTimer) clearTimeout(this.lifetimeTimer);
    this.turn?.abort();
    this.runs.abortAll();
    this.transcriptions.abortAll();
    // The child's voice lives no longer than the socket.
    this.voice.close();
  }

  /** Resolves once the running turn (if any) has sent its close and saved its history. */
  async idle(): Promise<void> {
    await this.queue;
    await this.turn?.done;
  }

  private async process(message: unknown, serverStart: number, uncounted: boolean): Promise<void> {
    if (this.phase === "closed") return;
    try {
      await this.dispatch(message, serverStart, uncounted);
    } catch (error) {
      // Never let a throw vanish inside the websocket handler: answer it and keep the socket usable.
      this.ports.logger.error({ event: "ws_handler_error", session: this.id, err: (error as Error).message }, "interact handler failed");
      this.send(errorResponse({ uid: uidOf(message), clientStartTime: null, serverStart }, "internal error", "internal"));
    }
  }

  /** `uncounted`: an add_audio chunk not yet counted as a message (it is, if it is refused). */
  private async dispatch(message: unknown, serverStart: number, uncounted: boolean): Promise<void> {
    const stamp: RequestStamp = { uid: uidOf(message), clientStartTime: null, serverStart };
    if (message === undefined || typeof message !== "object" || message === null || Array.isArray(message)) {
      this.send(errorResponse(stamp, message === undefined ? "the message is not valid JSON" : "the message must be a JSON object", "invalid_message"));
      return;
    }
    const fields = message as { type?: unknown; kind?: unknown; client_start_time?: unknown };
    if (await this.clientNotice(fields, stamp.uid)) return;
    const clientTime = fields.client_start_time;
    if (typeof clientTime === "string") {
      // A device's local form (2026-11-22T09.41.07.123456Z on Finnish devices) is echoed as it came.
      stamp.clientStartTime = normaliseTimestamp(clientTime) ?? clientTime;
    } else if (clientTime !== undefined && clientTime !== null) {
      this.send(errorResponse(stamp, 'field "client_start_time" must be an ISO 8601 UTC timestamp', "invalid_message"));
      return;
    }
    const kind = fields.kind;
    // A refused interact is a stream: it gets a stream error and its close, like every interact series.
    const refuse = (error: string, code: ErrorCode) => {
      this.refuse(kind === "interact", stamp, error, code);
      if (uncounted) this.countMessage();
    };
    if (kind !== "authenticate" && kind !== "ping" && this.phase === "connected") {
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
    await this.handle(checked.value, stamp, uncounted);
  }

  /**
   * Messages the hosted engine's clients send that are never answered: the client ending one of its streams
   * (`{"type":"stream","kind":"close"|"error"}`, symmetrical streams) and its top-level `error` and `debug`
   * messages. True when `message` was one of them.
   */
  private async clientNotice(message: { type?: unknown; kind?: unknown }, uid: string): Promise<boolean> {
    if (message.type === "stream" && (message.kind === "close" || message.kind === "error")) {
      const running = uid !== "" && this.turn?.uid === uid ? this.turn : null;
      if (!running) {
        this.ports.logger.debug({ event: "ws_stream_end_ignored", session: this.id, kind: message.kind }, "client ended a stream that is not running");
        return true;
      }
      this.ports.logger.info({ event: "ws_stream_ended_by_client", session: this.id, kind: message.kind }, "client ended its stream");
      await running.endByClient();
      return true;
    }
    if (message.type === "error" || message.type === "debug") {
      this.ports.logger.debug({ event: "ws_client_notice", session: this.id, type: message.type }, "client sent a notice");
      return true;
    }
    return false;
  }

  /** The state machine: one case per request kind. */
  private async handle(request: ClientRequest, stamp: RequestStamp, uncounted: boolean): Promise<void> {
    switch (request.kind) {
      case "ping":
        this.send(response("ping", stamp, {}));
        return;
      case "authenticate":
        return this.onAuthenticate(request, stamp);
      case "set_configuration":
        return this.onConfigure("set_configuration", await setConfiguration(request.config, this.configureContext()), stamp);
      case "merge_configuration":
        return this.onConfigure("merge_configuration", await mergeConfiguration(request, this.configureContext()), stamp);
      case "render_prompt":
        if (!this.config) return this.refuse(false, stamp, "session is not configured", "not_configured");
        this.send(response("render_prompt", stamp, { prompt: renderPrompt(this.config, request.context) }));
        return;
      case "run":
        return this.onRun(request, stamp);
      case "get_configuration":
        // Always a configuration ({} before one is set): the Unity SDK reads `config` without checking for null.
        this.send(response("get_configuration", stamp, { config: this.config ?? {} }));
        return;
      case "get_available_models":
        this.send(response("get_available_models", stamp, { models: Object.fromEntries(this.ports.models) }));
        return;
      case "set_service_profile":
        return this.onServiceProfile(request.service_profile, stamp);
      case "add_audio":
        return this.onAddAudio(request, stamp, uncounted);
      case "clear_audio":
        // Always succeeds, also on an empty buffer: the Unity SDK sends it before every turn and ends its
        // conversation on any error.
        this.voice.clear();
        this.send(response("clear_audio", stamp, {}));
        return;
      case "check_turn":
        this.send(response("check_turn", stamp, { is_user_still_speaking: this.voice.isUserStillSpeaking() }));
        return;
      case "transcribe":
        return this.onTranscribe(request, stamp);
      // The hosted engine's kinds that hoot does not serve.
      case "add_keywords":
      case "remove_keywords":
      case "detect_keywords":
      case "add_speaker":
      case "remove_speakers":
      case "detect_speakers":
      case "generate_image":
        return this.unsupported(request.kind, stamp);
      case "interrupt": {
        const running = this.turn?.uid === request.target_uid ? this.turn : null;
        // The audio buffered so far belonged to the conversation being interrupted: it goes too.
        this.voice.clear();
        if (running) await running.stop(request.at_character);
        this.send(response("interrupt", stamp, { target_uid: request.target_uid, interrupted: running !== null }));
        return;
      }
      case "interact":
        return this.onInteract(request, stamp);
      default: {
        // A request kind added to model.ts without a case here fails to compile.
        const unhandled: never = request;
        return unhandled;
      }
    }
  }

  private async onAuthenticate(request: RequestOf<"authenticate">, stamp: RequestStamp): Promise<void> {
    const player = await this.ports.authenticate(request.access_token);
    if (this.phase === "closed") return;
    if (!player || (this.identity && player.playerId !== this.identity.playerId)) {
      // Refused, but the socket stays: a fresh socket may try again until the authentication deadline, and a
      // live session keeps its current token until that expires.
      this.send(errorResponse(stamp, "authentication failed: the token is missing, invalid, expired or revoked", "unauthorized"));
      return;
    }
    if (!this.identity) {
      const admitted = await this.ports.admit(this, player.playerId);
      // The socket may have closed while the database answered (TypeScript keeps the narrowing across await).
      if ((this.phase as SessionState) === "closed") return;
      if (!admitted) {
        this.fail("too_many_sockets", "this player has too many open sockets");
        return;
      }
    }
    this.identity = player;
    if (this.phase === "connected") this.phase = "authenticated";
    if (this.authTimer) clearTimeout(this.authTimer);
    this.authTimer = null;
    if (this.ports.limits.closeAtTokenExpiry) this.armExpiry(player.expiresAt);
    this.lifetimeTimer ??= setTimeout(
      () => void this.shutdown("session_expired", "the session reached its longest allowed lifetime; log in and connect again"),
      this.ports.limits.maxSessionMs,
    );
    this.send(response("authenticate", stamp, {}));
  }

  private armExpiry(expiresAt: number): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    const ms = Math.max(0, (expiresAt + this.ports.limits.clockToleranceSeconds) * 1000 - Date.now());
    // setTimeout caps at ~24.8 days; tokens live at most a day, so this never overflows.
    this.expiryTimer = setTimeout(() => void this.shutdown("token_expired", "the access token expired; re-authenticate on the socket before it does"), ms);
  }

  private configureContext() {
    return { playerId: this.identity?.playerId ?? 0, stored: this.ports.stored, voices: this.ports.engine.voices(), current: this.config, limits: this.ports.limits.configuration };
  }

  private async onConfigure(kind: "set_configuration" | "merge_configuration", outcome: Configured, stamp: RequestStamp): Promise<void> {
    if (this.phase === "closed") return;
    if (!outcome.ok) {
      this.send(errorResponse(stamp, outcome.error, outcome.code));
      return;
    }
    // The safety policy resolves within the player's team (a team policy, or a built-in one).
    const problem = await this.guard.configure(outcome.config.safety_policy, this.identity?.teamId);
    // The socket may have closed while the policy was looked up.
    if ((this.phase as SessionState) === "closed") return;
    if (problem) {
      this.send(errorResponse(stamp, problem, "invalid_configuration"));
      return;
    }
    this.config = outcome.config;
    this.phase = "configured";
    if (kind === "merge_configuration") this.send(response(kind, stamp, { utilities: configuredUtilities(this.config) }));
    else this.send(response(kind, stamp, {}));
  }

  /** `run` works in the background (like a turn), so an interrupt is not queued behind it. */
  private onRun(request: RequestOf<"run">, stamp: RequestStamp): void {
    const config = this.config;
    const identity = this.identity;
    if (!config || !identity) return this.refuse(false, stamp, "session is not configured", "not_configured");
    if (!this.runs.available) return this.refuse(false, stamp, `at most ${this.runs.limit} run requests may be working at once; wait for an answer`, "too_many_requests");
    const safetyPolicy = turnConfig(config, [], config.language_code || "en").safety_policy;
    this.runs.start(
      async (signal) => {
        const outcome = await runUtilities(config, request, identity.playerId, { engine: this.ports.engine, history: this.ports.history, safetyPolicy, signal });
        if (signal.aborted) return;
        this.send(outcome.ok ? response("run", stamp, { data: outcome.result.data }) : errorResponse(stamp, outcome.error, outcome.code));
      },
      (error) => {
        this.ports.logger.error({ event: "ws_handler_error", session: this.id, err: (error as Error).message }, "run failed");
        this.send(errorResponse(stamp, "internal error", "internal"));
      },
    );
  }

  private onServiceProfile(name: string, stamp: RequestStamp): void {
    // With one model served, picking it (or "default") changes nothing; another name is refused by name.
    if (name !== "" && name !== "default" && !this.ports.models.has(name)) {
      const available = ["default", ...this.ports.models.keys()].join(", ");
      this.send(errorResponse(stamp, `unknown service profile "${name}" (available: ${available})`, "unknown_service_profile"));
      return;
    }
    this.send(response("set_service_profile", stamp, {}));
  }

  /** An error response naming a request kind this server does not serve (never "unknown request kind"). */
  private unsupported(kind: string, stamp: RequestStamp): void {
    this.send(errorResponse(stamp, `${kind} is not supported by this server`, "unsupported_request"));
  }

  /**
   * Decodes a chunk into the buffer. With `barge_in` configured, a chunk in which the child is heard speaking
   * while a reply streams stops that reply, as an interrupt does (the history keeps what was sent).
   */
  private async onAddAudio(request: RequestOf<"add_audio">, stamp: RequestStamp, uncounted: boolean): Promise<void> {
    const outcome = await this.voice.add(request.audio, request.config);
    if (this.phase === "closed") return;
    if (!outcome.ok) {
      this.send(errorResponse(stamp, outcome.error, outcome.code));
      if (uncounted) this.countMessage();
      return;
    }
    this.send(response("add_audio", stamp, {}));
    const running = this.turn;
    if (this.config?.barge_in && running?.replying && outcome.value.turn.speaking) {
      this.ports.logger.info({ event: "barge_in", session: this.id }, "the child spoke over the reply: interrupting it");
      await running.stop();
    }
  }

  /** `transcribe` asks the recogniser in the background (like `run`), so an interrupt is not queued behind it. */
  private async onTranscribe(request: RequestOf<"transcribe">, stamp: RequestStamp): Promise<void> {
    if (!this.transcriptions.available) return this.refuse(false, stamp, `at most ${this.transcriptions.limit} transcribe requests may be working at once; wait for an answer`, "too_many_requests");
    // The buffer as it is now, in arrival order; it is kept (only an interact without text consumes it).
    const heard = await this.voice.snapshot(false);
    if (this.phase === "closed") return;
    if (!heard) return this.refuse(false, stamp, "nothing to transcribe: there is no buffered audio; send add_audio first", "no_audio");
    const language = request.language_code || this.config?.language_code || "en";
    this.transcriptions.start(
      async (signal) => {
        try {
          const { transcript } = await this.voice.transcribe(heard, language, Number.MAX_SAFE_INTEGER, signal);
          if (!signal.aborted) this.send(response("transcribe", stamp, { text: transcript }));
        } catch (error) {
          if (signal.aborted || !(error instanceof VoiceInputError)) throw error;
          const failure = voiceFailure(error);
          this.send(errorResponse(stamp, failure.error, failure.code));
        } finally {
          // The copy handed to the recogniser is not kept a moment longer than its answer.
          heard.wav.fill(0);
        }
      },
      (error) => {
        if (this.phase === "closed") return;
        this.ports.logger.error({ event: "ws_handler_error", session: this.id, err: (error as Error).message }, "transcribe failed");
        this.send(errorResponse(stamp, "internal error", "internal"));
      },
    );
  }

  private async onInteract(request: RequestOf<"interact">, stamp: RequestStamp): Promise<void> {
    if (this.phase !== "configured" || !this.config || !this.identity) {
      this.refuse(true, stamp, "session is not configured", "not_configured");
      return;
    }
    const settings = interactSettings(this.config, request);
    const { text } = settings;
    // An interact with empty or absent text uses the child's buffered voice.
    const spoken = text.trim() === "";
    const limit = this.ports.limits.maxInteractChars;
    if (text.length > limit) {
      this.refuse(true, stamp, `field "text" is longer than ${limit} characters`, "invalid_message");
      return;
    }
    const utilities = planUtilities(this.config, request);
    if (!utilities.ok) {
      this.refuse(true, stamp, utilities.error, "unknown_utility");
      return;
    }
    if (spoken && !(await this.voice.hasAudio())) {
      this.refuse(true, stamp, 'there is no buffered audio: send add_audio first, or send the child\'s words as "text"', "no_audio");
      return;
    }
    // A new interact interrupts the running one first: its stream closes before the new one starts.
    await this.turn?.stop();
    if (this.phase !== "configured") return;
    // Taken now, in arrival order: audio sent after this interact belongs to the next turn.
    const heard = spoken ? await this.voice.snapshot(true) : null;
    if (spoken && !heard) {
      this.refuse(true, stamp, "there is no buffered audio: send add_audio first", "no_audio");
      return;
    }
    const voice = this.voice;
    const turn = runTurn(this.ports, {
      stamp,
      playerId: this.identity.playerId,
      sessionId: this.id,
      config: { ...turnConfig(this.config, this.ports.engine.voices(), settings.languageCode), utilities: utilities.plan },
      text,
      context: settings.context,
      audioOutput: settings.audioOutput,
      guard: this.guard.forTurn(this.identity),
      ...(heard ? { listen: (signal: AbortSignal) => voice.transcribe(heard, settings.languageCode, limit, signal).finally(() => heard.wav.fill(0)) } : {}),
      send: (message) => this.send(message),
    });
    this.turn = turn;
    void turn.done.then(() => {
      if (this.turn === turn) this.turn = null;
    });
  }

  private refuse(stream: boolean, stamp: RequestStamp, error: string, code: ErrorCode): void {
    if (stream) {
      this.send(streamError(stamp, error, code));
      this.send(streamClose(stamp));
    } else {
      this.send(errorResponse(stamp, error, code));
    }
  }

  private countMessage(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    if (++this.windowCount <= this.ports.limits.messagesPerMinute) return true;
    this.fail("rate_limited", `more than ${this.ports.limits.messagesPerMinute} messages in a minute`);
    return false;
  }

  /** The running stream ends with its close, then `{"type":"error"}` says why, then the socket closes. */
  private fail(code: FatalCode, error: string): void {
    if (this.phase === "closed") return;
    const closeCode = FATAL[code].close;
    this.ports.logger.info({ event: "ws_closed_by_server", session: this.id, code, closeCode }, "closing interact socket");
    this.turn?.closeNow();
    this.send(fatal(error, code));
    this.socket.close(closeCode, code);
    this.closed();
  }

  private send(message: ServerMessage): void {
    if (this.phase !== "closed") this.socket.send(JSON.stringify(message));
  }
}

/** Whether a parsed message is an `add_audio` request (its fields are checked later, as any request's). */
function isAudioChunk(message: unknown): boolean {
  const fields = message as { type?: unknown; kind?: unknown } | null;
  return typeof fields === "object" && fields !== null && fields.type === "request" && fields.kind === "add_audio";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function uidOf(message: unknown): string {
  const uid = (message as { uid?: unknown } | null)?.uid;
  return typeof uid === "string" ? uid : "";
}

/** Bytes of a raw message; 0 for a value the transport already parsed (its size was checked there). */
function byteLength(message: unknown): number {
  if (typeof message === "string") return Buffer.byteLength(message, "utf8");
  if (message instanceof Uint8Array) return message.byteLength;
  return 0;
}

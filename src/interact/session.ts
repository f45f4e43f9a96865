/**
 * One interact websocket as a state machine: connected -> authenticated -> configured -> closed. It checks
 * the credential before any work, answers every request with its uid, and runs at most one turn at a time.
 * It knows nothing of Elysia, the database or the auth module: it gets a socket to write to and small ports
 * (authenticate, admit, history, engine), so its tests run with fakes and no server.
 *
 * Rules it keeps:
 *  - only `authenticate` and `ping` before authentication ("session is not authenticated");
 *  - `interact` only after a configuration ("session is not configured");
 *  - a new `interact`, or `interrupt`, stops the running turn at once; its stream still ends with `close`;
 *  - the client's own stream `close` (or `error`) stops the running turn too, and nothing more is sent with
 *    its uid; a stream end for a uid that is not running is ignored, never answered;
 *  - an authenticated socket outlives its token (the Unity SDK never re-authenticates) unless
 *    `closeAtTokenExpiry` (then 4401 at expiry, pushed back by re-authentication); it lives at most
 *    `maxSessionMs` after its first authentication (4401);
 *  - the inbox (inbox.ts) keeps the size limit, the arrival order and the per-minute count (`add_audio` is
 *    paid for from the audio budget instead); turns run in the background;
 *  - voice requests (voice.ts) need an authenticated socket; the buffered audio is dropped by `clear_audio`,
 *    `interrupt`, the interact that uses it, and the socket's close (player deletion closes it);
 *  - nothing thrown in here escapes: every failure becomes an error message on the socket.
 *
 * Memory: an idle session (authenticated and configured) holds its state, its inbox, its safety guard, its
 * clocks' entries (timers.ts) and a shared configuration (shared-config.ts). What only some sockets use is made
 * on first use: the ports that follow the player's data mode (the first turn, run or audio), the voice buffer and
 * its request handlers (the first voice request), the background runs (the first `run`).
 */
import type { ErrorCode } from "../errors.ts";
import { interactSettings, turnConfig } from "./configuration.ts";
import {
  BackgroundRuns,
  type Configured,
  configuredUtilities,
  mergeConfiguration,
  planUtilities,
  renderPrompt,
  setConfiguration,
  startRun,
} from "./configure.ts";
import { withDataMode } from "./data-mode.ts";
import { sessionHistory } from "./history.ts";
import { clientNotice, Inbox, type InboxOwner, type MessageFields, notAnObject, readClientTime, readRequest, uidOf } from "./inbox.ts";
import type { ClientRequest, RequestOf, SessionConfig } from "./model.ts";
import { errorResponse, FATAL, type FatalCode, fatal, type RequestStamp, response, type ServerMessage, streamClose, streamError } from "./protocol.ts";
import { BUILTIN_ONLY, SessionGuard } from "./safety.ts";
import { serviceProfile, unsupported } from "./server-requests.ts";
import type { PlayerIdentity, SessionPorts, SessionSocket, SessionState } from "./session-ports.ts";
import { shareConfiguration } from "./shared-config.ts";
import { SessionTimers, type TimedSession } from "./timers.ts";
import { type RunningTurn, runTurn } from "./turn.ts";
import { NO_RECOGNISER, SessionVoice } from "./voice.ts";
import { addAudio, clearAudio, isUserStillSpeaking, transcribe, type VoiceRequestSession } from "./voice-requests.ts";

export { MAX_QUEUED_AUDIO, type PlayerIdentity, type SessionLimits, type SessionPorts, type SessionSocket, type SessionState } from "./session-ports.ts";

export class InteractSession implements InboxOwner, TimedSession {
  private phase: SessionState = "connected";
  private identity: PlayerIdentity | null = null;
  private config: SessionConfig | null = null;
  private turn: RunningTurn | null = null;
  /** The shared ports with the history and recogniser following the player's data mode (made on first use). */
  private followed: SessionPorts | null = null;
  /** The ports a turn gets: this session's own history (made on the first turn). */
  private turnPorts: SessionPorts | null = null;
  private readonly timers = new SessionTimers(this);
  private readonly inbox: Inbox;
  private readonly guard: SessionGuard;
  /** `run` requests working in the background (made by the first). */
  private runs: BackgroundRuns | null = null;
  /** What the voice requests (voice-requests.ts) read and answer through, with the voice buffer (made by the first). */
  private voiceSession: VoiceRequestSession | null = null;

  constructor(
    readonly id: string,
    private readonly socket: SessionSocket,
    private readonly ports: SessionPorts,
  ) {
    this.guard = new SessionGuard(id, ports.safety ?? BUILTIN_ONLY, ports.logger);
    this.inbox = new Inbox(ports.limits, this);
    this.timers.startAuthDeadline(ports.limits.authTimeoutMs);
  }

  get state(): SessionState {
    return this.phase;
  }

  /** The authenticated player, or null. */
  get player(): PlayerIdentity | null {
    return this.identity;
  }
  /** Cuts a reply this socket's history recorded (`whole`) to what was heard, where that history keeps it. */
  async amendReply(whole: string, reply: string): Promise<boolean> {
    return this.identity !== null && ((await (this.turnPorts ?? this.ports).history.amendReply?.(this.identity.playerId, whole, reply)) ?? false);
  }

  /**
   * Handles one incoming message: raw text (or bytes) from the socket, or a value already parsed by the
   * transport. Messages are handled in arrival order, so a client that sends authenticate and
   * set_configuration back to back is answered as if it had waited; turns run in the background so
   * `interrupt` is not queued behind them. `counted` false: see Inbox.receive.
   */
  receive(message: unknown, counted = true): Promise<void> {
    return this.inbox.receive(message, counted);
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
    this.timers.clear();
    this.turn?.abort();
    this.runs?.abortAll();
    this.voiceSession?.transcriptions.abortAll();
    // The child's voice lives no longer than the socket.
    this.voiceSession?.voice.close();
  }

  /** Resolves once the running turn (if any) has sent its close and saved its history. */
  async idle(): Promise<void> {
    await this.inbox.settled;
    await this.turn?.done;
  }

  /** Handles one message the inbox took (InboxOwner: the inbox calls it in arrival order). */
  async process(message: unknown, serverStart: number, uncounted: boolean): Promise<void> {
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
    const shapeError = notAnObject(message);
    if (shapeError !== null) return this.send(errorResponse(stamp, shapeError, "invalid_message"));
    const fields = message as MessageFields;
    if (await clientNotice(fields, stamp.uid, this.turn, this.ports.logger, this.id)) return;
    const timeError = readClientTime(fields, stamp);
    if (timeError !== null) return this.send(errorResponse(stamp, timeError, "invalid_message"));
    const read = readRequest(message as object, stamp, this.phase);
    if (!read.ok) {
      // A refused interact is a stream: it gets a stream error and its close, like every interact series.
      this.refuse(fields.kind === "interact", stamp, read.error, read.code);
      if (uncounted) this.inbox.count();
      return;
    }
    await this.handle(read.request, stamp, uncounted);
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
        return this.send(response("get_available_models", stamp, { models: Object.fromEntries(this.ports.models) }));
      case "set_service_profile":
        return this.send(serviceProfile(request.service_profile, this.ports.models, stamp));
      case "add_audio":
        return addAudio(this.voiceRequests(), request, stamp, uncounted);
      case "clear_audio":
        return this.send(clearAudio(this.voiceSession, stamp));
      case "check_turn":
        return this.send(response("check_turn", stamp, { is_user_still_speaking: isUserStillSpeaking(this.voiceSession) }));
      case "transcribe":
        return transcribe(this.voiceRequests(), request, stamp);
      // The hosted engine's kinds that hoot does not serve.
      case "add_keywords":
      case "remove_keywords":
      case "detect_keywords":
      case "add_speaker":
      case "remove_speakers":
      case "detect_speakers":
      case "generate_image":
        return this.send(unsupported(request.kind, stamp));
      case "interrupt": {
        const running = this.turn?.uid === request.target_uid ? this.turn : null;
        // The audio buffered so far belonged to the conversation being interrupted: it goes too.
        this.voiceSession?.voice.clear();
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
    const { closeAtTokenExpiry, clockToleranceSeconds, maxSessionMs } = this.ports.limits;
    this.timers.stopAuthDeadline();
    if (closeAtTokenExpiry) this.timers.armExpiry(player.expiresAt, clockToleranceSeconds);
    this.timers.startLifetime(maxSessionMs);
    this.send(response("authenticate", stamp, {}));
  }

  private configureContext() {
    return {
      playerId: this.identity?.playerId ?? 0,
      stored: this.ports.stored,
      voices: this.ports.engine.voices(),
      current: this.config,
      limits: this.ports.limits.configuration,
    };
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
    // Sessions with the same configuration share one frozen copy of it.
    this.config = shareConfiguration(outcome.config);
    this.phase = "configured";
    if (kind === "merge_configuration") this.send(response(kind, stamp, { utilities: configuredUtilities(this.config) }));
    else this.send(response(kind, stamp, {}));
  }

  /** `run` works in the background (like a turn), so an interrupt is not queued behind it. */
  private onRun(request: RequestOf<"run">, stamp: RequestStamp): void {
    if (!this.config || !this.identity) return this.refuse(false, stamp, "session is not configured", "not_configured");
    const runs = (this.runs ??= new BackgroundRuns(this.ports.limits.runsAtOnce));
    if (!runs.available) return this.refuse(false, stamp, `at most ${runs.limit} run requests may be working at once; wait for an answer`, "too_many_requests");
    const { engine, logger } = this.ports;
    const send = (message: ServerMessage) => this.send(message);
    startRun(runs, this.config, this.identity.playerId, request, stamp, { engine, history: this.dataModePorts().history, logger, sessionId: this.id, send });
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
    if (spoken && !(await this.voiceSession?.voice.hasAudio())) {
      this.refuse(true, stamp, 'there is no buffered audio: send add_audio first, or send the child\'s words as "text"', "no_audio");
      return;
    }
    // A new interact interrupts the running one first: its stream closes before the new one starts.
    await this.turn?.stop();
    if (this.phase !== "configured") return;
    // Taken now, in arrival order: audio sent after this interact belongs to the next turn.
    const voice = this.voiceSession?.voice;
    const heard = spoken && voice ? await voice.snapshot(true) : null;
    if (spoken && !heard) {
      this.refuse(true, stamp, "there is no buffered audio: send add_audio first", "no_audio");
      return;
    }
    const turn = runTurn((this.turnPorts ??= sessionHistory(this.dataModePorts())), {
      stamp,
      playerId: this.identity.playerId,
      sessionId: this.id,
      config: { ...turnConfig(this.config, this.ports.engine.voices(), settings.languageCode), utilities: utilities.plan },
      text,
      context: settings.context,
      audioOutput: settings.audioOutput,
      marks: settings.marks,
      guard: this.guard.forTurn(this.identity),
      ...(heard && voice
        ? { listen: (signal: AbortSignal) => voice.transcribe(heard, settings.languageCode, limit, signal).finally(() => heard.wav.fill(0)) }
        : {}),
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

  /**
   * The ports with the history and the recogniser following the player's data mode (consent) at every turn; made
   * once per socket, on first use (its data-lite memory lives as long as the socket).
   */
  private dataModePorts(): SessionPorts {
    return (this.followed ??= withDataMode(this.ports, () => this.identity?.playerId));
  }

  /** The voice requests' view of this session, with its voice buffer: made by the first voice request. */
  private voiceRequests(): VoiceRequestSession {
    if (this.voiceSession) return this.voiceSession;
    const voice = new SessionVoice(this.dataModePorts().voice ?? NO_RECOGNISER);
    // The socket may have closed while this request waited: a buffer made now is shut at once.
    if (this.phase === "closed") voice.close();
    this.voiceSession = {
      id: this.id,
      voice,
      transcriptions: new BackgroundRuns(this.ports.limits.runsAtOnce),
      logger: this.ports.logger,
      isClosed: () => this.phase === "closed",
      configured: () => this.config,
      runningTurn: () => this.turn,
      send: (message) => this.send(message),
      refuse: (stream, stamp, error, code) => this.refuse(stream, stamp, error, code),
      countMessage: () => void this.inbox.count(),
    };
    return this.voiceSession;
  }

  /** The running stream ends with its close, then `{"type":"error"}` says why, then the socket closes (InboxOwner). */
  fail(code: FatalCode, error: string): void {
    if (this.phase === "closed") return;
    const closeCode = FATAL[code].close;
    this.ports.logger.info({ event: "ws_closed_by_server", session: this.id, code, closeCode }, "closing interact socket");
    this.turn?.closeNow();
    this.send(fatal(error, code));
    this.socket.close(closeCode, code);
    this.closed();
  }

  private send(message: ServerMessage): void {
    if (this.phase === "closed") return;
    // A second wire adapter (src/realtime) takes the message as it is and writes its own wire.
    if (this.socket.deliver) this.socket.deliver(message);
    else this.socket.send(JSON.stringify(message));
  }
}

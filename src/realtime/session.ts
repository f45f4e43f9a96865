/**
 * One /v1/realtime socket: a second wire adapter over the interact session state machine
 * (src/interact/session.ts). Each Realtime client event becomes the interact requests that mean it
 * (authenticate, set/merge_configuration, interact and its stream close, add_audio, check_turn, transcribe,
 * clear_audio), sent to the socket's InteractSession as parsed values; the session's messages come back
 * through `deliver` and are written as Realtime server events (response.ts for a turn's stream). So the
 * credential, the limits, the safety checks, the history and the engine are /interact's own.
 *
 * Rules it keeps:
 *  - the token was checked before the upgrade; the interact session authenticates with it first, then takes
 *    the default configuration, and only then is `session.created` sent; events wait for that;
 *  - its own inbox (interact's Inbox class) keeps the size limit, the arrival order and the per-minute count of
 *    client events; `input_audio_buffer.append` is paid from the audio budget instead (add_audio's rule); the
 *    requests it makes are not counted again;
 *  - an unknown event type, or a bad field, is an `invalid_request_error` naming it, with the client event's
 *    event_id; the socket stays open;
 *  - one response at a time; a new user turn's words wait in `pending` (text items, or transcripts of
 *    committed audio) until the next response takes them, at most MAX_PENDING items and the interact text
 *    limit in characters (nothing a client sends grows the session without bound);
 *  - a connection-fatal problem (revocation, rate, shutdown) is an `error` event, then the interact session
 *    closes the socket with the /interact close code.
 */
import type { EngineLogger } from "../engine/index.ts";
import { Inbox } from "../interact/inbox.ts";
import type { ServerMessage } from "../interact/protocol.ts";
import type { InteractSession, SessionLimits, SessionSocket } from "../interact/session.ts";
import { newId } from "./ids.ts";
import { type ClientEvent, type ClientEventOf, checkEvent, isClientEventType } from "./model.ts";
import { type OutgoingEvent, ResponseRun } from "./response.ts";
import { configOf, defaultView, mergeView, referenceOf, type SessionView, sessionObject } from "./view.ts";
import { RealtimeVoice } from "./voice.ts";

export interface RealtimePorts {
  limits: Pick<SessionLimits, "maxMessageBytes" | "messagesPerMinute" | "queuedAudioChunks" | "maxInteractChars">;
  /** The speech engine's voices; the first is the default child voice. */
  voices(): string[];
  logger: EngineLogger;
}

type Reply = Extract<ServerMessage, { type: "response" }>;
/** The words of one user turn: text at once, or a transcript on its way. */
type Pending = Promise<string>;

/** User items that may wait for a response. */
export const MAX_PENDING = 32;

export class RealtimeSession {
  private interact: InteractSession | null = null;
  private phase: "starting" | "open" | "closed" = "starting";
  private view: SessionView;
  private readonly inbox: Inbox;
  private ready: Promise<boolean> = Promise.resolve(false);
  private readonly waiting = new Map<string, (reply: Reply | null) => void>();
  private readonly runs = new Map<string, ResponseRun>();
  private response: ResponseRun | null = null;
  /** The last finished response, for a truncate that comes after it. */
  private last: ResponseRun | null = null;
  private pending: Pending[] = [];
  private pendingChars = 0;
  /** The message being handled is an append not yet counted: a refusal of it counts (see process). */
  private countRefusal = false;
  private previousItem: string | null = null;
  private readonly conversationId = newId("conv");
  readonly voice: RealtimeVoice;
  /** What the interact session writes to. */
  readonly wire: SessionSocket;

  constructor(
    readonly id: string,
    private readonly socket: SessionSocket,
    private readonly ports: RealtimePorts,
    model: string,
  ) {
    this.view = defaultView(newId("sess"), model, ports.voices()[0] ?? "default");
    const phase = () => (this.phase === "closed" ? "closed" : "authenticated");
    this.inbox = new Inbox(ports.limits, {
      get state() {
        return phase();
      },
      fail: (code, error) => void this.interact?.shutdown(code, error),
      process: (message, _start, uncounted) => this.process(message, uncounted),
      isAudio: (message) => (message as { type?: unknown } | null)?.type === "input_audio_buffer.append",
    });
    this.wire = {
      send: (data) => this.deliver(JSON.parse(data) as ServerMessage),
      close: (code, reason) => this.socket.close(code, reason),
      deliver: (message) => this.deliver(message),
    };
    this.voice = new RealtimeVoice({
      request: (kind, fields) => this.request(kind, fields),
      emit: (event) => this.emit(event),
      error: (cause, code, message) => this.error(cause, code, message),
      itemAdded: (item) => this.itemAdded(item),
      heard: (words, respond) => {
        // A transcript is paid for from the audio budget; only the number of waiting items is bounded here.
        if (this.pending.length >= MAX_PENDING) this.pending.shift();
        this.pending.push(words);
        // Server VAD answers what was heard: a transcript that failed (or was refused in data-lite mode) starts
        // no response, so the character never answers words nobody said.
        if (respond) void words.then((text) => (text === "" ? undefined : this.startResponse(null, this.view.modality)));
      },
      cancelResponse: () => this.cancelRunning(),
      view: () => this.view,
    });
  }

  /** Authenticates the interact session with the token checked at the upgrade, configures the defaults, sends session.created. */
  start(interact: InteractSession, token: string): void {
    this.interact = interact;
    this.ready = (async () => {
      const auth = await this.request("authenticate", { access_token: token });
      if (!auth || auth.kind === "error") {
        if (auth) this.fatal(auth.error, "unauthorized", 1008);
        return false;
      }
      const configured = await this.configure(this.view);
      if (!configured.ok) {
        this.fatal(configured.message, configured.code, 1011);
        return false;
      }
      this.phase = "open";
      this.emit({ type: "session.created", session: sessionObject(this.view) });
      return true;
    })();
  }

  /** One raw message from the socket. */
  receive(message: string | Uint8Array): void {
    void this.inbox.receive(message);
  }

  /** The socket is gone. */
  closed(): void {
    this.phase = "closed";
    for (const resolve of this.waiting.values()) resolve(null);
    this.waiting.clear();
    this.interact = null;
  }

  /** Resolves once the running response has ended. */
  async idle(): Promise<void> {
    await this.inbox.settled;
    await this.response?.done;
  }

  /** `uncounted`: an append not yet counted as a message (paid from the audio budget); it is, if it is refused. */
  private async process(message: unknown, uncounted = false): Promise<void> {
    if (!(await this.ready) || this.phase === "closed") return;
    this.countRefusal = uncounted;
    try {
      await this.checkAndHandle(message);
    } finally {
      this.countRefusal = false;
    }
  }

  private async checkAndHandle(message: unknown): Promise<void> {
    const fields = message as { type?: unknown; event_id?: unknown } | null;
    const cause = typeof fields?.event_id === "string" ? fields.event_id : null;
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
      return this.error(cause, "invalid_json", message === undefined ? "the message is not valid JSON" : "the message must be a JSON object");
    }
    if (!isClientEventType(fields.type)) {
      const named = typeof fields.type === "string" && /^[\w.]{1,100}$/.test(fields.type) ? `"${fields.type}"` : "this";
      return this.error(cause, "invalid_event_type", `${named} is not a client event type this server knows`, "type");
    }
    const checked = checkEvent(fields.type, message);
    if (!checked.ok) return this.error(cause, "invalid_value", checked.error, checked.param);
    try {
      await this.handle(checked.value, cause);
    } catch (error) {
      this.ports.logger.error({ event: "realtime_handler_error", session: this.id, err: (error as Error).message }, "realtime handler failed");
      this.error(cause, "internal", "internal error", null, "server_error");
    }
  }

  /** The state machine of this wire: one case per client event type. */
  private async handle(event: ClientEvent, cause: string | null): Promise<void> {
    switch (event.type) {
      case "session.update":
        return this.onSessionUpdate(event, cause);
      case "input_audio_buffer.append":
        return this.voice.append(event.audio, cause);
      case "input_audio_buffer.commit":
        return this.voice.commit(cause, false);
      case "input_audio_buffer.clear":
        return this.voice.clear();
      case "conversation.item.create":
        return this.onItemCreate(event, cause);
      case "conversation.item.truncate":
        return this.onTruncate(event, cause);
      case "response.create":
        if (this.response)
          return this.error(cause, "conversation_already_has_active_response", "a response is already in progress; cancel it or wait for response.done");
        this.startResponse(cause, event.response?.output_modalities?.[0] ?? this.view.modality);
        return;
      case "response.cancel":
        if (!this.response || (event.response_id && event.response_id !== this.response.id)) {
          return this.error(cause, "response_cancel_not_active", "there is no response in progress to cancel");
        }
        return this.cancelRunning();
      case "conversation.item.delete":
      case "conversation.item.retrieve":
      case "output_audio_buffer.clear":
        return this.error(cause, "unsupported_event", `${event.type} is not supported by this server`, "type");
      default: {
        // A client event added to model.ts without a case here fails to compile.
        const unhandled: never = event;
        return unhandled;
      }
    }
  }

  private async onSessionUpdate(event: ClientEventOf<"session.update">, cause: string | null): Promise<void> {
    const next = mergeView(this.view, event.session, this.ports.voices());
    const outcome = await this.configure(next);
    if (!outcome.ok) {
      // The interact session keeps the configuration it had; put it back where a first step changed it.
      if (outcome.partial) await this.configure(this.view);
      return this.error(cause, outcome.code, outcome.message, outcome.code === "unknown_reference" ? "session.prompt.id" : null);
    }
    this.view = next;
    this.emit({ type: "session.updated", session: sessionObject(this.view) });
  }

  /** Puts the view's configuration on the interact session. */
  private async configure(view: SessionView): Promise<{ ok: true } | { ok: false; code: string; message: string; partial: boolean }> {
    const reference = referenceOf(view);
    const fields = configOf(view);
    if (reference !== null) {
      const stored = await this.request("set_configuration", { config: { reference } });
      if (!stored || stored.kind === "error") return { ok: false, code: stored?.code ?? "closed", message: stored?.error ?? "closed", partial: false };
    }
    const kind = reference === null ? "set_configuration" : "merge_configuration";
    const reply = await this.request(kind, { config: fields });
    if (!reply || reply.kind === "error") return { ok: false, code: reply?.code ?? "closed", message: reply?.error ?? "closed", partial: reference !== null };
    if (reference !== null && !view.instructionsSet) {
      // The stored prompt is the character's: the view shows it.
      const got = await this.request("get_configuration", {});
      const prompt = got?.kind === "get_configuration" ? (got.config as { prompt?: unknown }).prompt : undefined;
      if (typeof prompt === "string") view.instructions = prompt;
    }
    return { ok: true };
  }

  private onItemCreate(event: ClientEventOf<"conversation.item.create">, cause: string | null): void {
    const { item } = event;
    if (item.type !== "message" || item.role !== "user") {
      return this.error(cause, "unsupported_item", 'only user messages ({"type": "message", "role": "user"}) can be added', "item.type");
    }
    const parts = item.content ?? [];
    if (parts.length === 0 || parts.some((part) => part.type !== "input_text" || typeof part.text !== "string")) {
      return this.error(cause, "unsupported_content", "a user message's content must be input_text parts with text", "item.content");
    }
    const text = parts.map((part) => part.text).join("\n");
    const limit = this.ports.limits.maxInteractChars;
    if (this.pending.length >= MAX_PENDING || this.pendingChars + text.length > limit) {
      const error = `the user's words waiting for a response would pass ${limit} characters or ${MAX_PENDING} items: send response.create first`;
      return this.error(cause, "too_much_pending_input", error, "item.content");
    }
    this.pendingChars += text.length;
    this.pending.push(Promise.resolve(text));
    const id = item.id ?? newId("item");
    this.itemAdded({ id, type: "message", role: "user", status: "completed", content: parts.map((part) => ({ type: "input_text", text: part.text })) });
  }

  /** conversation.item.added and .done for a user item, which joins the conversation at once. */
  private itemAdded(item: { id: string } & Record<string, unknown>): void {
    const full = { object: "realtime.item", ...item };
    this.emit({ type: "conversation.item.added", previous_item_id: this.previousItem, item: full });
    this.emit({ type: "conversation.item.done", previous_item_id: this.previousItem, item: full });
    this.previousItem = item.id;
  }

  private async onTruncate(event: ClientEventOf<"conversation.item.truncate">, cause: string | null): Promise<void> {
    const run = [this.response, this.last].find((one) => one?.itemId === event.item_id) ?? null;
    if (!run) return this.error(cause, "item_truncate_invalid_item_id", `no assistant item "${event.item_id.slice(0, 100)}" to truncate`, "item_id");
    // Only audio can be truncated (as OpenAI's): a text response has no audio_end_ms to cut at.
    if (!run.speaks) return this.error(cause, "item_truncate_no_audio", "this item has no audio to truncate (a text response)", "item_id");
    const audioEnd = Math.min(event.audio_end_ms, Math.ceil(run.audioLength));
    const heard = run.charactersHeard(audioEnd);
    // A running response stops first (its turn saves what was sent).
    if (!run.isDone) await this.cancelRunning();
    const newer = this.response !== null && this.response !== run;
    if (heard < run.transcript.length && !newer) {
      // The turn is saved: its reply is cut to what the listener heard.
      const amended = (await this.interact?.amendReply(run.transcript, run.transcript.slice(0, heard)).catch(() => false)) ?? false;
      if (!amended) this.ports.logger.warn({ event: "realtime_truncate_not_saved", session: this.id }, "a truncated reply could not be cut in the history");
    }
    this.emit({ type: "conversation.item.truncated", item_id: event.item_id, content_index: event.content_index, audio_end_ms: audioEnd });
  }

  /** Starts a response over the pending words (or "." to speak first); it runs once its transcripts are in. */
  private startResponse(cause: string | null, modality: "text" | "audio"): void {
    if (this.response) return;
    const id = newId("resp");
    const run = new ResponseRun({
      id,
      itemId: newId("item"),
      conversationId: this.conversationId,
      modality,
      format: this.view.outputFormat,
      voice: this.view.voice,
      marks: { ...this.view.marks },
      previousItemId: this.previousItem,
      causeEventId: cause,
      send: (event) => this.emit(event),
    });
    this.response = run;
    this.runs.set(id, run);
    run.created();
    const words = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    void run.done.then(() => {
      this.runs.delete(id);
      if (this.response === run) this.response = null;
      this.last = run;
      this.previousItem = run.itemId;
    });
    void Promise.all(words).then((texts) => {
      if (run.isDone || this.phase === "closed") return;
      const text = texts.filter((one) => one.trim() !== "").join("\n");
      // Marks are asked for (or not) on every turn, so a stored configuration's own marks setting never adds them.
      const { subtitles, visemes } = run.marks;
      const request = { type: "stream", kind: "interact", uid: id, text: text === "" ? "." : text, audio_output: modality === "audio", subtitles, visemes };
      void this.interact?.receive(request, false);
    });
  }

  /**
   * Stops the running response as a client ending its stream does on /interact (the turn stops at once and saves
   * what was sent), not as `interrupt`, which would also drop the buffered audio: speech that has just started
   * (server VAD) or audio appended for the next turn stays. The interact session sends nothing more with its uid.
   */
  private async cancelRunning(): Promise<void> {
    const run = this.response;
    if (!run || !this.interact) return;
    await this.interact.receive({ type: "stream", kind: "close", uid: run.id }, false);
    run.finish();
  }

  /** One interact request, answered by its uid (null when the socket closed first). */
  private request(kind: string, fields: Record<string, unknown>): Promise<Reply | null> {
    const interact = this.interact;
    if (!interact || this.phase === "closed") return Promise.resolve(null);
    const uid = newId("rq");
    const answered = new Promise<Reply | null>((resolve) => this.waiting.set(uid, resolve));
    void interact.receive({ type: "request", kind, uid, ...fields }, false);
    return answered;
  }

  /** Every message of the interact session. */
  private deliver(message: ServerMessage): void {
    if (message.type === "response") {
      const resolve = this.waiting.get(message.uid);
      this.waiting.delete(message.uid);
      resolve?.(message);
    } else if (message.type === "stream") {
      this.runs.get(message.uid)?.onMessage(message);
    } else {
      // Connection-fatal: the running response ends, the client is told why, then the session closes the socket.
      this.response?.finish();
      this.error(null, message.code, message.error, null, message.code === "server_shutting_down" ? "server_error" : "invalid_request_error");
    }
  }

  /** An error event; the socket closes after it (before the session ever opened). */
  private fatal(message: string, code: string, close: number): void {
    this.error(null, code, message);
    this.socket.close(close, code);
  }

  private error(cause: string | null, code: string, message: string, param: string | null = null, type = "invalid_request_error"): void {
    // A refused append costs a message: errors are answered, so they must not be free.
    if (this.countRefusal) {
      this.countRefusal = false;
      if (!this.inbox.count()) return;
    }
    this.emit({ type: "error", error: { type, code, message, param, event_id: cause } });
  }

  private emit(event: OutgoingEvent): void {
    if (this.phase === "closed") return;
    this.socket.send(JSON.stringify({ event_id: newId("event"), ...event }));
  }
}

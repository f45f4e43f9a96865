/**
 * A session's inbox: what happens to a message between the socket and the session's request switch.
 *
 * Rules it keeps (see session.ts for the whole list):
 *  - a message over the size limit closes the socket (1009) after `{"type":"error"}` saying so;
 *  - messages are handled one after another in arrival order;
 *  - every message counts against the per-minute limit (4429 past it), except an `add_audio` chunk of an
 *    authenticated socket while few chunks wait to be decoded: that one is paid for from the audio budget, and
 *    counts after all if it is refused;
 *  - a request is checked (a JSON object, a known kind, its fields, a uid) before the session sees it.
 */
import type { EngineLogger } from "../engine/index.ts";
import type { ErrorCode } from "../errors.ts";
import { type ClientRequest, checkRequest, isKnownKind } from "./model.ts";
import type { FatalCode, RequestStamp } from "./protocol.ts";
import type { SessionLimits, SessionState } from "./session-ports.ts";
import { normaliseTimestamp, nowMicros } from "./times.ts";
import type { RunningTurn } from "./turn.ts";

/** What the inbox hands on and reports to its session (the interact session is its own owner: no closures per socket). */
export interface InboxOwner {
  readonly state: SessionState;
  fail(code: FatalCode, error: string): void;
  /** Handles one message; `uncounted`: an add_audio chunk not yet counted as a message. */
  process(message: unknown, serverStart: number, uncounted: boolean): Promise<void>;
  /** Which parsed messages are audio chunks paid for from the audio budget (default: `add_audio` requests). */
  isAudio?(message: unknown): boolean;
}

/** One settled promise for every idle inbox (an idle socket holds no promise of its own). */
const SETTLED: Promise<void> = Promise.resolve();

/** The queue of one socket's messages and its per-minute count. */
export class Inbox {
  private queue: Promise<void> = SETTLED;
  /** Messages taken and not yet handled. */
  private waiting = 0;
  private windowStart = Date.now();
  private windowCount = 0;
  private queuedAudio = 0;

  constructor(
    private readonly limits: Pick<SessionLimits, "maxMessageBytes" | "messagesPerMinute" | "queuedAudioChunks">,
    private readonly owner: InboxOwner,
  ) {}

  /** Settles once every message received so far has been handled. */
  get settled(): Promise<void> {
    return this.queue;
  }

  /**
   * Takes one message: raw text (or bytes) from the socket, or a value already parsed by the transport.
   * `counted` false: a request that another wire adapter (src/realtime) made for a client message it has
   * already counted and size-checked itself.
   */
  receive(message: unknown, counted = true): Promise<void> {
    const serverStart = nowMicros();
    const state = this.owner.state;
    if (state === "closed") return this.queue;
    const limit = this.limits.maxMessageBytes;
    if (byteLength(message) > limit) {
      this.owner.fail("message_too_large", `the message is larger than the limit of ${limit} bytes`);
      return this.queue;
    }
    const parsed = typeof message === "string" ? parseJson(message) : message instanceof Uint8Array ? { binary: true } : message;
    // An audio chunk is paid for from the audio budget instead (see the rules above).
    const audio = state !== "connected" && (this.owner.isAudio ?? isAudioChunk)(parsed) && this.queuedAudio < this.limits.queuedAudioChunks;
    if (!audio && counted && !this.count()) return this.queue;
    if (audio) this.queuedAudio++;
    this.waiting++;
    this.queue = this.queue.then(async () => {
      try {
        await this.owner.process(parsed, serverStart, audio);
      } finally {
        if (audio) this.queuedAudio--;
        // The last message handled: the socket goes back to the shared settled promise.
        if (--this.waiting === 0) this.queue = SETTLED;
      }
    });
    return this.queue;
  }

  /** Counts one message against the per-minute limit; false (and the socket closed) past it. */
  count(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    if (++this.windowCount <= this.limits.messagesPerMinute) return true;
    this.owner.fail("rate_limited", `more than ${this.limits.messagesPerMinute} messages in a minute`);
    return false;
  }
}

/** The fields every message may carry, before it is checked as a request. */
export type MessageFields = { type?: unknown; kind?: unknown; client_start_time?: unknown };

/** Why a message is not a JSON object, or null when it is one. */
export function notAnObject(message: unknown): string | null {
  if (message === undefined) return "the message is not valid JSON";
  if (typeof message !== "object" || message === null || Array.isArray(message)) return "the message must be a JSON object";
  return null;
}

/**
 * Reads `client_start_time` into the stamp; the error when it is there but not a timestamp. A device's local form
 * (2026-11-22T09.41.07.123456Z on Finnish devices) is echoed as it came.
 */
export function readClientTime(fields: MessageFields, stamp: RequestStamp): string | null {
  const clientTime = fields.client_start_time;
  if (typeof clientTime === "string") stamp.clientStartTime = normaliseTimestamp(clientTime) ?? clientTime;
  else if (clientTime !== undefined && clientTime !== null) return 'field "client_start_time" must be an ISO 8601 UTC timestamp';
  return null;
}

/** The checked request, or why it is refused (only `authenticate` and `ping` before authentication). */
export function readRequest(
  message: object,
  stamp: RequestStamp,
  state: SessionState,
): { ok: true; request: ClientRequest } | { ok: false; error: string; code: ErrorCode } {
  const kind = (message as MessageFields).kind;
  if (kind !== "authenticate" && kind !== "ping" && state === "connected")
    return { ok: false, error: "session is not authenticated", code: "not_authenticated" };
  if (!isKnownKind(kind)) return { ok: false, error: typeof kind === "string" ? "unknown request kind" : 'field "kind" is required', code: "unknown_kind" };
  const checked = checkRequest(kind, message);
  if (!checked.ok) return { ok: false, error: checked.error, code: "invalid_message" };
  if (!stamp.uid) return { ok: false, error: 'field "uid" is required', code: "invalid_message" };
  return { ok: true, request: checked.value };
}

/**
 * Messages the hosted engine's clients send that are never answered: the client ending one of its streams
 * (`{"type":"stream","kind":"close"|"error"}`, symmetrical streams) and its top-level `error` and `debug`
 * messages. True when `message` was one of them.
 */
export async function clientNotice(
  message: { type?: unknown; kind?: unknown },
  uid: string,
  turn: RunningTurn | null,
  logger: EngineLogger,
  sessionId: string,
): Promise<boolean> {
  if (message.type === "stream" && (message.kind === "close" || message.kind === "error")) {
    const running = uid !== "" && turn?.uid === uid ? turn : null;
    if (!running) {
      logger.debug({ event: "ws_stream_end_ignored", session: sessionId, kind: message.kind }, "client ended a stream that is not running");
      return true;
    }
    logger.info({ event: "ws_stream_ended_by_client", session: sessionId, kind: message.kind }, "client ended its stream");
    await running.endByClient();
    return true;
  }
  if (message.type === "error" || message.type === "debug") {
    logger.debug({ event: "ws_client_notice", session: sessionId, type: message.type }, "client sent a notice");
    return true;
  }
  return false;
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

/** The message's uid, or "" when it has none. */
export function uidOf(message: unknown): string {
  const uid = (message as { uid?: unknown } | null)?.uid;
  return typeof uid === "string" ? uid : "";
}

/** Bytes of a raw message; 0 for a value the transport already parsed (its size was checked there). */
function byteLength(message: unknown): number {
  if (typeof message === "string") return Buffer.byteLength(message, "utf8");
  if (message instanceof Uint8Array) return message.byteLength;
  return 0;
}

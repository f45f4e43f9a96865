/**
 * Every message the server sends on the interact socket (PROTOCOL.md section 2), as TypeBox schemas in one
 * union, and `toWire`: the only place where the engine's frames become websocket messages. The session builds
 * its other messages (responses, refusals, closes) with the typed builders below, so nothing on the wire is an
 * untyped object. The AsyncAPI document (asyncapi.ts) and the README's protocol tables are checked against
 * these same schemas.
 *
 * The client SDK imports the types from here with `import type`, so it never loads server code.
 */
import { type Static, type TProperties, Type } from "@sinclair/typebox";
import { type TurnFrame, VISEMES } from "../engine/index.ts";
import { type ErrorCode, ErrorCodeSchema } from "../errors.ts";
import { ConfigSchema } from "./model.ts";
import { formatMicros, nowMicros } from "./times.ts";

const Uid = Type.String({ description: "The uid of the request or stream this message belongs to." });
const Sentence = Type.String({ description: "A sentence for the app developer." });
const Times = {
  client_start_time: Type.Union([Type.String(), Type.Null()], {
    description:
      "The request's client_start_time, normalised to six fractional digits (as it came when it could not be parsed, such as a device's local form); null when it sent none.",
  }),
  server_start_time: Type.String({ description: "When the request arrived (ISO 8601 UTC, six fractional digits)." }),
  server_end_time: Type.String({ description: "When this message was sent." }),
};

function responseSchema<K extends string, P extends TProperties>(kind: K, payload: P, description: string) {
  return Type.Object(
    { type: Type.Literal("response"), kind: Type.Literal(kind), uid: Uid, ...Times, ...payload },
    { additionalProperties: false, title: `${kind} response`, description },
  );
}

/** The answer to each request kind that succeeded. */
export const ResponseSchemas = {
  authenticate: responseSchema("authenticate", {}, "The token was accepted."),
  ping: responseSchema("ping", {}, "The server is alive."),
  set_configuration: responseSchema("set_configuration", {}, "The configuration was replaced."),
  merge_configuration: responseSchema(
    "merge_configuration",
    { utilities: Type.Array(Type.String(), { description: "The names of the utilities configured now." }) },
    "The configuration was deep-merged.",
  ),
  get_configuration: responseSchema(
    "get_configuration",
    {
      config: Type.Union([ConfigSchema, Type.Object({}, { additionalProperties: false })], {
        description: "The configuration as it was set (references resolved, null fields dropped); {} before one is set.",
      }),
    },
    "The current configuration.",
  ),
  render_prompt: responseSchema(
    "render_prompt",
    { prompt: Type.String({ description: "The configured prompt with {{name}} filled from the context." }) },
    "The filled prompt.",
  ),
  run: responseSchema(
    "run",
    {
      data: Type.Record(Type.String(), Type.Unknown(), { description: 'Utility results by name: the answer, or {"error", "code"} for a utility that failed.' }),
    },
    "The utilities' results.",
  ),
  interrupt: responseSchema(
    "interrupt",
    { target_uid: Uid, interrupted: Type.Boolean({ description: "true when a running stream with that uid was stopped (its close was sent first)." }) },
    "The target stream is stopped.",
  ),
  get_available_models: responseSchema(
    "get_available_models",
    { models: Type.Record(Type.String(), Type.String(), { description: "One entry per model this server serves: name -> one-line description." }) },
    "The models set_service_profile may pick.",
  ),
  set_service_profile: responseSchema("set_service_profile", {}, "The session uses that model from now on."),
  clear_audio: responseSchema("clear_audio", {}, "The session's audio buffer is empty."),
  add_audio: responseSchema("add_audio", {}, "The chunk was decoded and added to the session's audio buffer."),
  check_turn: responseSchema(
    "check_turn",
    {
      is_user_still_speaking: Type.Boolean({
        description: "true from the first speech in the buffered audio until HOOT_VAD_SILENCE_MS of silence follow it; false before any speech.",
      }),
    },
    "Whether the child is still speaking, by the voice activity detector over the buffered audio.",
  ),
  transcribe: responseSchema(
    "transcribe",
    { text: Type.String({ description: 'What the recogniser heard in the buffered audio ("" when no speech was heard); the buffer is kept.' }) },
    "The buffered audio as text.",
  ),
};
export type ResponseKind = keyof typeof ResponseSchemas;
type Envelope = "type" | "kind" | "uid" | "client_start_time" | "server_start_time" | "server_end_time";
export type ResponsePayload<K extends ResponseKind> = Omit<Static<(typeof ResponseSchemas)[K]>, Envelope>;

export const ErrorResponseSchema = Type.Object(
  { type: Type.Literal("response"), kind: Type.Literal("error"), uid: Uid, error: Sentence, code: ErrorCodeSchema, ...Times },
  { additionalProperties: false, title: "error response", description: "A request that failed. The socket stays open." },
);

function eventSchema<E extends string, P extends TProperties>(event: E, payload: P, description: string) {
  return Type.Object(
    { type: Type.Literal("stream"), kind: Type.Literal("interact"), uid: Uid, ...Times, event: Type.Literal(event), ...payload },
    { additionalProperties: false, title: `${event} event`, description },
  );
}

const Seconds = (description: string) => Type.Number({ minimum: 0, description });
const SubtitleSchema = Type.Object(
  {
    text: Type.String({ description: "One word as the reply writes it, punctuation attached." }),
    start_time_sec: Seconds("When the word starts, from the start of this message's audio."),
    duration_sec: Seconds("How long it is spoken (it may run past this message's audio, into the next)."),
  },
  { additionalProperties: false, title: "subtitle" },
);
const VisemeSchema = Type.Object(
  {
    viseme: Type.Union(
      VISEMES.map((id) => Type.Literal(id)),
      { description: "An Oculus/Meta lip-sync viseme id." },
    ),
    start_time_sec: Seconds("From the start of this message's audio."),
    duration_sec: Seconds("Never zero; the next viseme starts where this one ends."),
  },
  { additionalProperties: false, title: "viseme" },
);

/** The events of one interaction, in the order they can come. */
export const EventSchemas = {
  interaction_started: eventSchema("interaction_started", {}, "The interaction began."),
  transcript: eventSchema(
    "transcript",
    { text: Type.String({ description: 'What the recogniser heard, as it heard it ("" when it heard no words).' }) },
    "An interact without text: the child's words taken from the buffered audio, sent before the reply.",
  ),
  text: eventSchema("text", { text: Type.String({ description: "A fragment of the reply, to show at once." }) }, "A fragment of the reply."),
  audio: eventSchema(
    "audio",
    {
      audio: Type.String({
        contentEncoding: "base64",
        description: "Whole MP3 frames (each sentence is its own MP3 stream), or 16-bit little-endian mono PCM.",
      }),
      mime_type: Type.String({ description: '"audio/mpeg", or a PCM type for pcm16.' }),
      sample_rate: Type.Integer({ description: "Samples per second." }),
      seq: Type.Integer({ minimum: 0, description: "Numbers the audio messages of one interaction from 0." }),
      text: Type.String({ description: "The sentence this audio speaks." }),
      duration_sec: Seconds("The length of this message's audio as a client decodes it (MP3: whole frames, the encoder's delay included)."),
      subtitles: Type.Optional(
        Type.Array(SubtitleSchema, {
          description: "When `subtitles` is on: the words that start in this message's audio, in order (PROTOCOL.md section 6).",
        }),
      ),
      visemes: Type.Optional(
        Type.Array(VisemeSchema, { description: "When `visemes` is on: mouth shapes tiling this message's audio from 0 to duration_sec, in order." }),
      ),
      marks: Type.Optional(
        Type.Union([Type.Literal("engine"), Type.Literal("estimated")], {
          description: 'Where the marks come from: "engine" (the speech engine\'s own timings) or "estimated" (a voice that gives none).',
        }),
      ),
    },
    "Synthesized speech for one sentence, in one or more messages.",
  ),
  data: eventSchema("data", { data: Type.Record(Type.String(), Type.Unknown(), { description: "Utility results by utility name." }) }, "Utility results."),
  safety_policy: eventSchema(
    "safety_policy",
    { category: Type.String({ description: "What the policy found." }), action: Type.String({ description: "What it did about it." }) },
    "A safety decision; never carries the offending text.",
  ),
  speech_unavailable: eventSchema(
    "speech_unavailable",
    { error: Sentence, code: Type.Literal("speech_busy") },
    "Audio was asked for, but speech capacity is short: this reply comes as text only (audio_complete still ends it). Sent before any text.",
  ),
  text_complete: eventSchema("text_complete", { text: Type.String({ description: "The whole reply as it was sent." }) }, "The reply's text is complete."),
  audio_complete: eventSchema("audio_complete", {}, "The reply's audio is complete (only when audio was asked for)."),
  interaction_complete: eventSchema("interaction_complete", {}, "The interaction finished and is saved in the player's history."),
  interaction_error: eventSchema("interaction_error", { error: Sentence, code: ErrorCodeSchema }, "The interaction failed; the stream's close follows."),
};
export type EventName = keyof typeof EventSchemas;
export type InteractEventMessage = Static<(typeof EventSchemas)[EventName]>;
/** An event without its envelope: what an SDK hands to the app (`{event: "text", text: "Hi"}`). */
export type InteractEventPayload = { [E in EventName]: Omit<Static<(typeof EventSchemas)[E]>, Exclude<Envelope, "event">> }[EventName];

export const StreamErrorSchema = Type.Object(
  { type: Type.Literal("stream"), kind: Type.Literal("error"), uid: Uid, error: Sentence, code: ErrorCodeSchema, ...Times },
  { additionalProperties: false, title: "stream error", description: "A stream request that was refused; its close follows." },
);
export const StreamCloseSchema = Type.Object(
  { type: Type.Literal("stream"), kind: Type.Literal("close"), uid: Uid, ...Times },
  { additionalProperties: false, title: "stream close", description: "The end of every stream, also after an error or an interruption." },
);

/** Connection-fatal problems: the `code` sent in `{"type":"error"}` and the close code that follows it (PROTOCOL.md section 4). */
export const FATAL = {
  auth_timeout: { close: 1008, when: "no successful authenticate within the time limit after connecting" },
  message_too_large: { close: 1009, when: "a message larger than the size limit" },
  server_busy: { close: 1013, when: "the server holds its maximum number of sockets" },
  too_many_pending: { close: 1013, when: "too many sockets from one address are waiting to authenticate" },
  rate_limited: { close: 4429, when: "more messages in a minute than the limit" },
  too_many_sockets: { close: 4429, when: "the player already has the maximum number of sockets" },
  token_expired: { close: 4401, when: "the access token expired and no fresh one was sent with authenticate (only with HOOT_WS_CLOSE_AT_TOKEN_EXPIRY=true)" },
  session_expired: {
    close: 4401,
    when: "the socket has been authenticated for the longest session allowed (HOOT_WS_MAX_SESSION_SECONDS); log in and connect again",
  },
  credential_revoked: { close: 4403, when: "the player was deleted or reset, or the service account was revoked" },
  server_shutting_down: { close: 1001, when: "the server is shutting down; every open stream sent its close first" },
} as const satisfies Partial<Record<ErrorCode, { close: number; when: string }>>;
export type FatalCode = keyof typeof FATAL;

export const FatalSchema = Type.Object(
  {
    type: Type.Literal("error"),
    kind: Type.Literal("error"),
    error: Sentence,
    code: Type.Union((Object.keys(FATAL) as FatalCode[]).map((code) => Type.Literal(code))),
  },
  {
    additionalProperties: false,
    title: "connection error",
    description: "Why the server is about to close the socket (`kind` is there for clients that read errors by kind alone, as the Unity SDK does).",
  },
);

/** Every message the server sends, as one union. */
export const ServerMessageSchema = Type.Union(
  [...Object.values(ResponseSchemas), ErrorResponseSchema, ...Object.values(EventSchemas), StreamErrorSchema, StreamCloseSchema, FatalSchema],
  { title: "server message" },
);
export type ServerMessage =
  | Static<(typeof ResponseSchemas)[ResponseKind]>
  | Static<typeof ErrorResponseSchema>
  | InteractEventMessage
  | Static<typeof StreamErrorSchema>
  | Static<typeof StreamCloseSchema>
  | Static<typeof FatalSchema>;

/** What every answer to one request shares: its uid, the echoed client time, and when it arrived. */
export interface RequestStamp {
  uid: string;
  clientStartTime: string | null;
  serverStart: number;
}

// A stream sends many messages with the same start time: format it once per request.
const startText = new WeakMap<RequestStamp, string>();

function times(stamp: RequestStamp): { client_start_time: string | null; server_start_time: string; server_end_time: string } {
  let start = startText.get(stamp);
  if (start === undefined) startText.set(stamp, (start = formatMicros(stamp.serverStart)));
  return { client_start_time: stamp.clientStartTime, server_start_time: start, server_end_time: formatMicros(nowMicros()) };
}

/**
 * What a stream sends: the engine's frames, the stream's own start and its acknowledgement once the turn is
 * saved, and errors with any code (the socket's own failures, such as history_not_saved, as well as the engine's).
 */
export type StreamFrame =
  | Exclude<TurnFrame, { type: "error" }>
  | { type: "error"; code: ErrorCode; error: string }
  | { type: "started" }
  /** The child's words heard in the buffered audio (an interact without text). */
  | { type: "transcript"; text: string }
  | { type: "committed" }
  /** The end of the audio of a reply that failed (a completed reply ends its audio with `complete`). */
  | { type: "audio_end" };

/**
 * The interaction events for one frame (most frames are one event; `complete` is text_complete and, when
 * audio was asked for, audio_complete).
 * @example toWire({ type: "text", text: "Hi" }, stamp) // [{ type: "stream", kind: "interact", event: "text", text: "Hi", ... }]
 */
export function toWire(frame: StreamFrame, stamp: RequestStamp): InteractEventMessage[] {
  const event = <E extends InteractEventPayload>(payload: E) => ({
    type: "stream" as const,
    kind: "interact" as const,
    uid: stamp.uid,
    ...times(stamp),
    ...payload,
  });
  switch (frame.type) {
    case "started":
      return [event({ event: "interaction_started" })];
    case "transcript":
      return [event({ event: "transcript", text: frame.text })];
    case "text":
      return [event({ event: "text", text: frame.text })];
    case "audio": {
      const { data, mimeType, sampleRate } = frame.chunk;
      const audio = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
      const marks = frame.marks ? { ...frame.marks } : {};
      return [
        event({
          event: "audio",
          audio,
          mime_type: mimeType,
          sample_rate: sampleRate,
          seq: frame.seq,
          text: frame.text,
          duration_sec: frame.durationSec,
          ...marks,
        }),
      ];
    }
    case "notice":
      return [event({ event: "safety_policy", category: frame.category, action: frame.action })];
    case "data":
      return [event({ event: "data", data: frame.data })];
    case "speech_unavailable":
      return [event({ event: "speech_unavailable", error: "The voice is busy right now: this reply comes as text only.", code: "speech_busy" })];
    case "error":
      return [event({ event: "interaction_error", error: frame.error, code: frame.code })];
    case "complete":
      return frame.audio
        ? [event({ event: "text_complete", text: frame.text }), event({ event: "audio_complete" })]
        : [event({ event: "text_complete", text: frame.text })];
    case "committed":
      return [event({ event: "interaction_complete" })];
    case "audio_end":
      return [event({ event: "audio_complete" })];
  }
}

/** `{"type":"response","kind",…}` answering a request. */
export function response<K extends ResponseKind>(kind: K, stamp: RequestStamp, payload: ResponsePayload<K>): ServerMessage {
  return { type: "response", kind, uid: stamp.uid, ...times(stamp), ...payload } as Static<(typeof ResponseSchemas)[K]>;
}

/** `{"type":"response","kind":"error",…}` for a request that failed. */
export function errorResponse(stamp: RequestStamp, error: string, code: ErrorCode): ServerMessage {
  return { type: "response", kind: "error", uid: stamp.uid, error, code, ...times(stamp) };
}

/** `{"type":"stream","kind":"error",…}` for a stream that was refused. */
export function streamError(stamp: RequestStamp, error: string, code: ErrorCode): ServerMessage {
  return { type: "stream", kind: "error", uid: stamp.uid, error, code, ...times(stamp) };
}

/** `{"type":"stream","kind":"close",…}`: the end of every stream. */
export function streamClose(stamp: RequestStamp): ServerMessage {
  return { type: "stream", kind: "close", uid: stamp.uid, ...times(stamp) };
}

/** `{"type":"error",…}`: a connection-fatal problem, sent just before the socket closes with `FATAL[code].close`. */
export function fatal(error: string, code: FatalCode): ServerMessage {
  return { type: "error", kind: "error", error, code };
}

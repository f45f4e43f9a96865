/**
 * The server events of the Realtime wire, as TypeBox schemas: one closed union the AsyncAPI document shows
 * and the tests hold every event the server sends to. Fields OpenAI sends that hoot has nothing for are
 * there with fixed values (`usage: null`, `tools: []`), so clients that read them find them.
 */
import { type TProperties, type TSchema, Type } from "@sinclair/typebox";
import { VISEMES } from "../engine/index.ts";

const Id = (description: string) => Type.String({ description });
const Index = Type.Integer({ minimum: 0 });
const Open = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });
const At = { response_id: Id("The response."), item_id: Id("The output item."), output_index: Index, content_index: Index };

function event<T extends string, P extends TProperties>(type: T, fields: P, description: string) {
  return Type.Object({ type: Type.Literal(type), event_id: Id("The server's id for this event."), ...fields }, { title: type, description });
}

const Session = Open("The whole session: type, id, model, instructions, output_modalities, audio {input, output}, prompt, hoot {safety_policy, context}.");
const Item = Open("A conversation item: {id, object: realtime.item, type: message, role, status, content}.");
const Response = Open("A response: {id, object: realtime.response, status, status_details, output, output_modalities, audio, usage}.");

const Seconds = (description: string) => Type.Number({ minimum: 0, description });

/** Speech marks of one audio delta (PROTOCOL.md section 6), when the session asked for them (session.hoot). */
const DeltaMarks = Type.Object(
  {
    duration_sec: Seconds("The length of this delta's audio (PCM: bytes / 2 / 24000; G.711: bytes / 8000)."),
    subtitles: Type.Optional(
      Type.Array(
        Type.Object(
          {
            text: Type.String({ description: "One word as the transcript writes it, punctuation attached." }),
            start_time_sec: Seconds("When the word starts, from the start of this delta's audio."),
            duration_sec: Seconds("How long it is spoken (it may run past this delta, into the next)."),
          },
          { additionalProperties: false },
        ),
        { description: "With hoot.subtitles: the words that start in this delta's audio, in order; each word of the transcript once." },
      ),
    ),
    visemes: Type.Optional(
      Type.Array(
        Type.Object(
          {
            viseme: Type.Union(
              VISEMES.map((id) => Type.Literal(id)),
              { description: "An Oculus/Meta lip-sync viseme id." },
            ),
            start_time_sec: Seconds("From the start of this delta's audio."),
            duration_sec: Seconds("Never zero; the next viseme starts where this one ends."),
          },
          { additionalProperties: false },
        ),
        { description: "With hoot.visemes: mouth shapes tiling this delta's audio from 0 to duration_sec, in order." },
      ),
    ),
    marks: Type.Union([Type.Literal("engine"), Type.Literal("estimated")], {
      description: '"engine" (the speech engine\'s own timings) or "estimated" (a voice that gives none).',
    }),
  },
  { additionalProperties: false, description: "hoot's speech marks for this delta; absent unless session.hoot.subtitles or visemes is on." },
);

/** Every event the server sends. */
export const ServerEventSchemas = {
  error: event(
    "error",
    {
      error: Type.Object({
        type: Type.Union([Type.Literal("invalid_request_error"), Type.Literal("server_error")]),
        code: Type.String({ description: "A snake_case code (hoot's error codes, or OpenAI's where it has one)." }),
        message: Type.String({ description: "A sentence for the app developer." }),
        param: Type.Union([Type.String(), Type.Null()], { description: "The field at fault, when one is." }),
        event_id: Type.Union([Type.String(), Type.Null()], { description: "The event_id of the client event that caused it." }),
      }),
    },
    "A client event was refused (the socket stays open), or a connection-fatal problem (the socket closes with /interact's code).",
  ),
  "session.created": event("session.created", { session: Session }, "Sent once the credential and the default configuration are in place."),
  "session.updated": event("session.updated", { session: Session }, "The whole session after a session.update."),
  "conversation.item.added": event(
    "conversation.item.added",
    { previous_item_id: Type.Union([Type.String(), Type.Null()]), item: Item },
    "An item joined the conversation.",
  ),
  "conversation.item.done": event(
    "conversation.item.done",
    { previous_item_id: Type.Optional(Type.Union([Type.String(), Type.Null()])), item: Item },
    "An item is complete.",
  ),
  "conversation.item.truncated": event(
    "conversation.item.truncated",
    { item_id: Id("The assistant item."), content_index: Index, audio_end_ms: Index },
    "The item was cut where the listener stopped hearing it; the history keeps only that much.",
  ),
  "conversation.item.input_audio_transcription.completed": event(
    "conversation.item.input_audio_transcription.completed",
    { item_id: Id("The user item."), content_index: Index, transcript: Type.String(), usage: Open("{type: duration, seconds}.") },
    "What the recogniser heard in a committed buffer.",
  ),
  "conversation.item.input_audio_transcription.failed": event(
    "conversation.item.input_audio_transcription.failed",
    { item_id: Id("The user item."), content_index: Index, error: Open("{type, code, message}.") },
    "The committed audio could not be transcribed.",
  ),
  "input_audio_buffer.speech_started": event(
    "input_audio_buffer.speech_started",
    { audio_start_ms: Index, item_id: Id("The user item the speech will become.") },
    "Server VAD heard speech start (a running response is stopped).",
  ),
  "input_audio_buffer.speech_stopped": event(
    "input_audio_buffer.speech_stopped",
    { audio_end_ms: Index, item_id: Id("The user item.") },
    "Server VAD heard HOOT_VAD_SILENCE_MS of silence after speech; the buffer is committed.",
  ),
  "input_audio_buffer.committed": event(
    "input_audio_buffer.committed",
    { item_id: Id("The user item."), previous_item_id: Type.Union([Type.String(), Type.Null()]) },
    "The buffered audio became a user item.",
  ),
  "input_audio_buffer.cleared": event("input_audio_buffer.cleared", {}, "The input buffer is empty."),
  "response.created": event("response.created", { response: Response }, "A response began."),
  "response.output_item.added": event(
    "response.output_item.added",
    { response_id: Id("The response."), output_index: Index, item: Item },
    "The assistant item.",
  ),
  "response.content_part.added": event(
    "response.content_part.added",
    { ...At, part: Open("{type: text, text} or {type: audio, transcript}.") },
    "Its content part.",
  ),
  "hoot.safety_policy": event(
    "hoot.safety_policy",
    { response_id: Id("The response."), category: Type.String(), action: Type.String() },
    "A safety decision, before the delta it concerns; never carries the offending text.",
  ),
  "response.output_text.delta": event("response.output_text.delta", { ...At, delta: Type.String() }, "A fragment of a text reply."),
  "response.output_text.done": event("response.output_text.done", { ...At, text: Type.String({ description: "Its deltas joined." }) }, "The text reply."),
  "response.output_audio.delta": event(
    "response.output_audio.delta",
    { ...At, delta: Type.String({ contentEncoding: "base64", description: "Audio in the session's output format." }), hoot: Type.Optional(DeltaMarks) },
    "A slice of the spoken reply (with its speech marks under `hoot` when the session asked for them).",
  ),
  "response.output_audio.done": event("response.output_audio.done", At, "The audio is complete."),
  "response.output_audio_transcript.delta": event("response.output_audio_transcript.delta", { ...At, delta: Type.String() }, "Words of the spoken reply."),
  "response.output_audio_transcript.done": event(
    "response.output_audio_transcript.done",
    { ...At, transcript: Type.String({ description: "Its deltas joined." }) },
    "The spoken reply's words.",
  ),
  "response.content_part.done": event("response.content_part.done", { ...At, part: Open("The whole part.") }, "The content part is complete."),
  "response.output_item.done": event("response.output_item.done", { response_id: Id("The response."), output_index: Index, item: Item }, "The assistant item."),
  "response.done": event("response.done", { response: Response }, "The response ended: status completed, cancelled or failed."),
};
export type ServerEventType = keyof typeof ServerEventSchemas;

/** The closed union, for the AsyncAPI document and the tests. */
export const ServerEventSchema: TSchema = Type.Union(Object.values(ServerEventSchemas), { title: "realtime server event" });

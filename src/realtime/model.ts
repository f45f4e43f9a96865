/**
 * The client events of the Realtime wire (PROTOCOL.md section 7, OpenAI's GA names of 2025-08) as TypeBox
 * schemas: one closed union, keyed by `type`. A client event of another type is refused by name
 * (`invalid_request_error`); a known event with a wrong field is refused with a sentence naming the field.
 *
 * Objects are open: OpenAI's clients send many fields hoot does not use (tools, tracing, noise reduction,
 * max_output_tokens, ...). Those are accepted and ignored (docs/realtime.md lists them), as PROTOCOL.md's
 * rule for the SDKs' fields says; the fields hoot reads are checked.
 */
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { ruleInWords } from "../rule-words.ts";

const EventId = Type.Optional(Type.String({ maxLength: 200, description: "The client's id for this event; an error it causes carries it." }));
const Nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

export const AudioFormatSchema = Type.Object(
  {
    type: Type.Union([Type.Literal("audio/pcm"), Type.Literal("audio/pcmu"), Type.Literal("audio/pcma")], {
      description: "audio/pcm: 16-bit little-endian mono PCM at 24 kHz; audio/pcmu and audio/pcma: G.711 at 8 kHz.",
    }),
    rate: Type.Optional(Type.Literal(24000, { description: "Only for audio/pcm, which is always 24 kHz." })),
  },
  { description: "An audio format." },
);

const TurnDetectionSchema = Type.Object(
  {
    type: Type.Union([Type.Literal("server_vad"), Type.Literal("semantic_vad")], {
      description: "server_vad: hoot's voice activity detector ends the turn; semantic_vad is served as server_vad.",
    }),
    create_response: Type.Optional(Type.Boolean({ description: "Default true: the server answers when the child stops speaking." })),
  },
  { description: "Turn detection; null: the client commits the audio and asks for a response." },
);

export const SessionUpdateSchema = Type.Object(
  {
    type: Type.Optional(Type.Literal("realtime")),
    instructions: Type.Optional(
      Type.String({ maxLength: 20000, description: "The character's prompt; {{name}} is filled from hoot.context and prompt.variables." }),
    ),
    output_modalities: Type.Optional(
      Type.Union([Type.Tuple([Type.Literal("text")]), Type.Tuple([Type.Literal("audio")])], {
        description: '["text"] or ["audio"] (audio comes with its transcript).',
      }),
    ),
    audio: Type.Optional(
      Type.Object({
        input: Type.Optional(Type.Object({ format: Type.Optional(AudioFormatSchema), turn_detection: Nullable(TurnDetectionSchema) })),
        output: Type.Optional(
          Type.Object({
            format: Type.Optional(AudioFormatSchema),
            voice: Type.Optional(Type.String({ maxLength: 100, description: "A hoot voice; another name falls back to the default child voice." })),
          }),
        ),
      }),
    ),
    prompt: Nullable(
      Type.Object(
        {
          id: Type.String({ minLength: 1, maxLength: 100, description: "The name of a stored configuration of the player's team." }),
          version: Type.Optional(
            Type.Union([Type.String({ maxLength: 20 }), Type.Integer({ minimum: 1 })], { description: "The stored version (default: latest)." }),
          ),
          variables: Type.Optional(
            Type.Record(Type.String({ maxLength: 100 }), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
              description: "Fill the stored prompt's {{name}} template, like context.",
            }),
          ),
        },
        { description: "A stored configuration; instructions, when given too, replaces its prompt text." },
      ),
    ),
    hoot: Type.Optional(
      Type.Object(
        {
          safety_policy: Nullable(Type.String({ maxLength: 100, description: "A policy name (default: the team's default children's policy)." })),
          context: Type.Optional(
            Type.Record(Type.String({ maxLength: 100 }), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
              description: "Fills the prompt's template and is shown to the model, as on /interact.",
            }),
          ),
          subtitles: Type.Optional(
            Type.Boolean({ description: "Default false. When true, each response.output_audio.delta carries its words' timings under `hoot`." }),
          ),
          visemes: Type.Optional(
            Type.Boolean({ description: "Default false. When true, each response.output_audio.delta carries mouth shapes tiling its audio under `hoot`." }),
          ),
        },
        { additionalProperties: false, description: "hoot's own session fields (closed: another key is refused)." },
      ),
    ),
  },
  { description: "A partial session: merged into the current one." },
);
export type SessionUpdate = Static<typeof SessionUpdateSchema>;

const ContentPart = Type.Object({
  type: Type.String({ maxLength: 50, description: "input_text (others are refused)." }),
  text: Type.Optional(Type.String()),
});

const ItemSchema = Type.Object({
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  type: Type.String({ maxLength: 50, description: "message (others are refused)." }),
  role: Type.Optional(Type.String({ maxLength: 50, description: "user (others are refused)." })),
  content: Type.Optional(Type.Array(ContentPart, { maxItems: 32 })),
});

function event<T extends string, P extends Record<string, TSchema>>(type: T, fields: P, description: string) {
  return Type.Object({ type: Type.Literal(type), event_id: EventId, ...fields }, { title: type, description });
}

/** Every client event hoot knows. */
export const ClientEventSchemas = {
  "session.update": event("session.update", { session: SessionUpdateSchema }, "Merges into the session; answered by session.updated."),
  "input_audio_buffer.append": event(
    "input_audio_buffer.append",
    { audio: Type.String({ contentEncoding: "base64", description: "Audio in the session's input format." }) },
    "Adds audio to the input buffer (paid from the audio budget, not the message rate).",
  ),
  "input_audio_buffer.commit": event("input_audio_buffer.commit", {}, "Makes the buffered audio a user item (transcribed)."),
  "input_audio_buffer.clear": event("input_audio_buffer.clear", {}, "Drops the buffered audio; answered by input_audio_buffer.cleared."),
  "conversation.item.create": event(
    "conversation.item.create",
    { previous_item_id: Nullable(Type.String({ maxLength: 100 })), item: ItemSchema },
    "Adds a user message with input_text parts.",
  ),
  "conversation.item.truncate": event(
    "conversation.item.truncate",
    { item_id: Type.String({ maxLength: 100 }), content_index: Type.Integer({ minimum: 0 }), audio_end_ms: Type.Integer({ minimum: 0 }) },
    "Cuts an assistant item's audio at audio_end_ms; the history keeps what was heard.",
  ),
  "conversation.item.delete": event("conversation.item.delete", { item_id: Type.String({ maxLength: 100 }) }, "Not served: answered with an error."),
  "conversation.item.retrieve": event("conversation.item.retrieve", { item_id: Type.String({ maxLength: 100 }) }, "Not served: answered with an error."),
  "response.create": event(
    "response.create",
    {
      response: Type.Optional(
        Type.Object({
          output_modalities: Type.Optional(Type.Union([Type.Tuple([Type.Literal("text")]), Type.Tuple([Type.Literal("audio")])])),
          conversation: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      ),
    },
    "Runs a turn over the user items added since the last response.",
  ),
  "response.cancel": event("response.cancel", { response_id: Type.Optional(Type.String({ maxLength: 100 })) }, "Stops the running response."),
  "output_audio_buffer.clear": event("output_audio_buffer.clear", {}, "WebRTC only: answered with an error."),
};
export type ClientEventType = keyof typeof ClientEventSchemas;
export type ClientEvent = { [K in ClientEventType]: Static<(typeof ClientEventSchemas)[K]> }[ClientEventType];
export type ClientEventOf<K extends ClientEventType> = Static<(typeof ClientEventSchemas)[K]>;

/** The closed union, for the AsyncAPI document. */
export const ClientEventSchema = Type.Union(Object.values(ClientEventSchemas), { title: "realtime client event" });

const compiled = new Map<ClientEventType, TypeCheck<TSchema>>();

/** Whether `type` names a client event hoot knows. */
export function isClientEventType(type: unknown): type is ClientEventType {
  return typeof type === "string" && Object.hasOwn(ClientEventSchemas, type);
}

/**
 * The checked event, or a sentence naming the first bad field.
 * @example checkEvent("response.cancel", { type: "response.cancel" }) // { ok: true, value: ... }
 */
export function checkEvent(type: ClientEventType, value: unknown): { ok: true; value: ClientEvent } | { ok: false; error: string; param: string | null } {
  let check = compiled.get(type);
  if (!check) compiled.set(type, (check = TypeCompiler.Compile(ClientEventSchemas[type])));
  if (check.Check(value)) return { ok: true, value: value as ClientEvent };
  const first = check.Errors(value).First();
  if (!first) return { ok: false, error: `${type} is not valid`, param: null };
  const path = first.path.split("/").filter(Boolean).join(".");
  // A path may hold a key the client chose (a context name): it is named only when it looks like a field name.
  const param = /^[A-Za-z0-9_.-]{1,120}$/.test(path) ? path : path === "" ? "" : "a field";
  if (first.type === ValueErrorType.ObjectRequiredProperty) return { ok: false, error: `${type}: field "${param}" is required`, param };
  return { ok: false, error: `${type}: field "${param || "event"}" ${ruleInWords(first)}`, param: param || null };
}

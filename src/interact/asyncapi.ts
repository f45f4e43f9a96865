/**
 * The websocket half of the API docs: an AsyncAPI 3 document generated from the same TypeBox schemas that
 * check requests (model.ts) and shape every server message (protocol.ts), served at GET /api/asyncapi.json
 * beside the OpenAPI document. Because it is built from the schemas the server runs on, it cannot drift
 * from the wire; a test validates it with the AsyncAPI parser and checks the README's protocol tables too.
 */
import { type TSchema, Type } from "@sinclair/typebox";
import { ERROR_CODES } from "../errors.ts";
import { realtimeAsyncApi } from "../realtime/asyncapi.ts";
import { ClientStreamEndSchema, ConfigSchema, type RequestKind, RequestSchemas } from "./model.ts";
import { ErrorResponseSchema, EventSchemas, FATAL, FatalSchema, type ResponseKind, ResponseSchemas, StreamCloseSchema, StreamErrorSchema } from "./protocol.ts";

type Json = Record<string, unknown>;

/** The document's payload for a request: set/merge_configuration show the configuration's own schema. */
function requestPayload(kind: RequestKind): TSchema {
  if (kind === "set_configuration")
    return Type.Composite([Type.Omit(RequestSchemas.set_configuration, ["config"]), Type.Object({ config: ConfigSchema })], { additionalProperties: false });
  if (kind === "merge_configuration") {
    return Type.Composite([Type.Omit(RequestSchemas.merge_configuration, ["config"]), Type.Object({ config: Type.Optional(Type.Partial(ConfigSchema)) })], {
      additionalProperties: false,
    });
  }
  return RequestSchemas[kind];
}

function message(name: string, schema: TSchema): Json {
  // JSON drops TypeBox's symbol keys, leaving plain JSON Schema (which AsyncAPI schemas extend).
  return {
    name,
    title: schema.title ?? name,
    summary: schema.description ?? "",
    contentType: "application/json",
    payload: JSON.parse(JSON.stringify(schema)) as Json,
  };
}

const ref = (path: string): Json => ({ $ref: path });
const channelMessage = (name: string): Json => ref(`#/channels/interact/messages/${name}`);

const DESCRIPTION = `The interact websocket of hoot (PROTOCOL.md section 2). A player's app connects to \`/interact\` on the same host and port as \`/api\`, authenticates with a player token, sets a configuration, then sends \`interact\` streams and receives the reply as events.

Every request carries a \`uid\` that its answer echoes; a failed request is answered by an error response with the same uid. A request kind of the hosted engine's SDKs that hoot does not serve is answered with an error response whose code is \`unsupported_request\`. A client may end its own interact stream with \`{"type":"stream","kind":"close","uid"}\` (or a stream \`error\`): the interaction stops and nothing more is sent with that uid; such a message for a uid that is not running is ignored. An \`interact\` stream's events carry its uid and always end with the stream's \`close\`. Connection-fatal problems send \`{"type":"error"}\` and then close the socket with the close code listed under \`x-close-codes\`.`;

/** The AsyncAPI 3 document of the interact websocket. */
export function asyncApiDocument(version = "0.1.0"): Json {
  const messages = new Map<string, Json>();
  const operations = new Map<string, Json>();
  const requestKinds = Object.keys(RequestSchemas) as RequestKind[];
  for (const kind of requestKinds) messages.set(`${kind}_request`, message(`${kind}_request`, requestPayload(kind)));
  for (const kind of Object.keys(ResponseSchemas) as ResponseKind[]) messages.set(`${kind}_response`, message(`${kind}_response`, ResponseSchemas[kind]));
  messages.set("error_response", message("error_response", ErrorResponseSchema));
  for (const [event, schema] of Object.entries(EventSchemas)) messages.set(`${event}_event`, message(`${event}_event`, schema));
  messages.set("stream_error", message("stream_error", StreamErrorSchema));
  messages.set("stream_close", message("stream_close", StreamCloseSchema));
  messages.set("connection_error", message("connection_error", FatalSchema));
  messages.set("client_stream_end", message("client_stream_end", ClientStreamEndSchema));

  const channel = ref("#/channels/interact");
  for (const kind of requestKinds) {
    if (kind === "interact") continue;
    operations.set(kind, {
      action: "receive",
      channel,
      summary: RequestSchemas[kind].description,
      messages: [channelMessage(`${kind}_request`)],
      // A kind hoot does not serve (yet) is always answered with an error response (code unsupported_request).
      reply: {
        channel,
        messages: kind in ResponseSchemas ? [channelMessage(`${kind}_response`), channelMessage("error_response")] : [channelMessage("error_response")],
      },
    });
  }
  operations.set("interact", {
    action: "receive",
    channel,
    summary: RequestSchemas.interact.description,
    messages: [channelMessage("interact_request")],
  });
  operations.set("client_stream_end", {
    action: "receive",
    channel,
    summary: ClientStreamEndSchema.description,
    messages: [channelMessage("client_stream_end")],
  });
  operations.set("interaction_events", {
    action: "send",
    channel,
    summary:
      "The events of an interact stream, in order: interaction_started; transcript (an interact without text); text, audio, data and safety_policy interleaved; text_complete, audio_complete, interaction_complete (or interaction_error); then the stream's close. A refused interact gets a stream error and its close. Every audio event carries duration_sec, and its speech marks (subtitles, visemes, marks) when the configuration or the interact turns them on.",
    messages: [...Object.keys(EventSchemas).map((event) => channelMessage(`${event}_event`)), channelMessage("stream_error"), channelMessage("stream_close")],
  });
  operations.set("connection_error", {
    action: "send",
    channel,
    summary: "A connection-fatal problem, sent just before the server closes the socket.",
    messages: [channelMessage("connection_error")],
  });

  // The OpenAI Realtime door (src/realtime) documents its own channel.
  const realtime = realtimeAsyncApi();
  return {
    asyncapi: "3.0.0",
    info: { title: "hoot interact websocket", version, description: DESCRIPTION },
    defaultContentType: "application/json",
    channels: {
      interact: {
        address: "/interact",
        title: "Interact",
        description: "One websocket per player session (at most a few per player).",
        messages: Object.fromEntries([...messages.keys()].map((name) => [name, ref(`#/components/messages/${name}`)])),
      },
      ...realtime.channels,
    },
    operations: { ...Object.fromEntries(operations), ...realtime.operations },
    components: { messages: { ...Object.fromEntries(messages), ...realtime.messages } },
    "x-close-codes": Object.entries(FATAL).map(([code, { close, when }]) => ({ close, code, when })),
    "x-error-codes": [...ERROR_CODES],
  };
}

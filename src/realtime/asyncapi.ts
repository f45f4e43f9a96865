/**
 * The /v1/realtime channel of the AsyncAPI document (src/interact/asyncapi.ts adds it beside /interact), from
 * the same TypeBox schemas that check client events (model.ts) and type the server's (events.ts). It imports
 * nothing of the interact wire, so the interact document can name it without an import circle.
 */
import type { TSchema } from "@sinclair/typebox";
import { ServerEventSchemas } from "./events.ts";
import { ClientEventSchemas } from "./model.ts";

type Json = Record<string, unknown>;

const DESCRIPTION = [
  "The OpenAI Realtime protocol (GA event names, 2025-08; PROTOCOL.md section 7): a second door to the same characters, safety,",
  "history and limits as /interact, for clients written for OpenAI's Realtime API (the `openai` package's OpenAIRealtimeWS, the",
  "Agents SDK, Pipecat, LiveKit). The credential is a player access token, as `Authorization: Bearer <token>` or the subprotocol",
  "`openai-insecure-api-key.<token>` beside `realtime`; anything else is a 401 before the upgrade. `?model=` is accepted. An unknown",
  "client event type is an `invalid_request_error` naming it, carrying the client event's `event_id`; the socket stays open. Limits",
  "and close codes are /interact's (x-close-codes). See docs/realtime.md.",
].join(" ");

/** Examples of the events whose hoot fields need showing: speech marks asked for, and a delta carrying them. */
export const REALTIME_EXAMPLES: Record<string, { name: string; summary: string; payload: Json }[]> = {
  "session.update": [
    {
      name: "speech_marks_on",
      summary: "Asks for speech marks (subtitles and visemes) on every audio delta; both are off by default.",
      payload: { type: "session.update", session: { type: "realtime", hoot: { subtitles: true, visemes: true } } },
    },
  ],
  "response.output_audio.delta": [
    {
      name: "with_speech_marks",
      summary: "A delta of 0.32 s of PCM (15,360 bytes) with its marks, timed from the start of this delta's audio.",
      payload: {
        type: "response.output_audio.delta",
        event_id: "event_5f1c",
        response_id: "resp_2b7e",
        item_id: "item_9a04",
        output_index: 0,
        content_index: 0,
        delta: "<base64 PCM16 at 24 kHz>",
        hoot: {
          duration_sec: 0.32,
          subtitles: [
            { text: "Hello", start_time_sec: 0.05, duration_sec: 0.21 },
            { text: "there!", start_time_sec: 0.26, duration_sec: 0.3 },
          ],
          visemes: [
            { viseme: "sil", start_time_sec: 0, duration_sec: 0.05 },
            { viseme: "E", start_time_sec: 0.05, duration_sec: 0.09 },
            { viseme: "nn", start_time_sec: 0.14, duration_sec: 0.06 },
            { viseme: "O", start_time_sec: 0.2, duration_sec: 0.06 },
            { viseme: "TH", start_time_sec: 0.26, duration_sec: 0.06 },
          ],
          marks: "engine",
        },
      },
    },
  ],
};

const messageOf = (name: string, type: string, schema: TSchema): Json => ({
  name,
  title: schema.title ?? name,
  summary: schema.description ?? "",
  contentType: "application/json",
  // JSON drops TypeBox's symbol keys, leaving plain JSON Schema.
  payload: JSON.parse(JSON.stringify(schema)) as Json,
  ...(REALTIME_EXAMPLES[type] ? { examples: REALTIME_EXAMPLES[type] } : {}),
});

/** A message name in the shared document: `realtime_` and the event type with `_` for `.`. */
const nameOf = (type: string) => `realtime_${type.replaceAll(".", "_")}`;

/** The channel, its operations and its messages, to merge into the AsyncAPI document. */
export function realtimeAsyncApi(): { channels: Json; operations: Json; messages: Json } {
  const client = Object.entries(ClientEventSchemas).map(([type, schema]) => [nameOf(type), messageOf(nameOf(type), type, schema)] as const);
  const server = Object.entries(ServerEventSchemas).map(([type, schema]) => [nameOf(type), messageOf(nameOf(type), type, schema)] as const);
  const channel = { $ref: "#/channels/realtime" };
  const inChannel = (name: string) => ({ $ref: `#/channels/realtime/messages/${name}` });
  return {
    channels: {
      realtime: {
        address: "/v1/realtime",
        title: "OpenAI Realtime",
        description: DESCRIPTION,
        messages: Object.fromEntries([...client, ...server].map(([name]) => [name, { $ref: `#/components/messages/${name}` }])),
      },
    },
    operations: {
      realtime_client_events: {
        action: "receive",
        channel,
        summary: "The client events hoot knows (a closed union; any other type is refused by name).",
        messages: client.map(([name]) => inChannel(name)),
      },
      realtime_server_events: {
        action: "send",
        channel,
        summary:
          "The server events: session.created on connect; for a response, response.created, output_item.added, content_part.added, " +
          "hoot.safety_policy where safety acted, the deltas, the .done events and response.done.",
        messages: server.map(([name]) => inChannel(name)),
      },
    },
    messages: Object.fromEntries([...client, ...server]),
  };
}

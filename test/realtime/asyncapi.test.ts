/**
 * The AsyncAPI document served at /api/asyncapi.json documents /v1/realtime beside /interact, from the same
 * schemas the server checks client events with and types its own events by (the whole document's validity
 * under the AsyncAPI parser is test/interact/docs.test.ts's).
 */
import { describe, expect, it } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ServerEventSchemas } from "../../src/realtime/events.ts";
import { ClientEventSchemas } from "../../src/realtime/model.ts";
import { api, serverForFile } from "../helpers/server.ts";

const file = serverForFile();

describe("the realtime channel of the AsyncAPI document", () => {
  it("lists /v1/realtime with every client event it knows and every server event it sends", async () => {
    const { status, body } = await api(file.server.url, "GET", "/api/asyncapi.json");
    expect(status).toBe(200);
    expect(body.channels.interact.address).toBe("/interact");
    expect(body.channels.realtime.address).toBe("/v1/realtime");
    const name = (type: string) => `realtime_${type.replaceAll(".", "_")}`;
    const received = body.operations.realtime_client_events.messages.map((m: { $ref: string }) => m.$ref.split("/").at(-1));
    expect(received).toEqual(Object.keys(ClientEventSchemas).map(name));
    const sent = body.operations.realtime_server_events.messages.map((m: { $ref: string }) => m.$ref.split("/").at(-1));
    expect(sent).toEqual(Object.keys(ServerEventSchemas).map(name));
    expect(body.components.messages.realtime_session_update.payload.properties.type.const).toBe("session.update");
    expect(body.components.messages["realtime_hoot_safety_policy"].payload.required).toContain("category");
  });

  it("shows the speech marks option with examples that the server's own schemas accept", async () => {
    const { body } = await api(file.server.url, "GET", "/api/asyncapi.json");
    const update = body.components.messages.realtime_session_update;
    expect(update.payload.properties.session.properties.hoot.properties.subtitles.type).toBe("boolean");
    expect(update.payload.properties.session.properties.hoot.properties.visemes.type).toBe("boolean");
    expect(update.examples[0].payload.session.hoot).toEqual({ subtitles: true, visemes: true });
    expect(TypeCompiler.Compile(ClientEventSchemas["session.update"]).Check(update.examples[0].payload)).toBe(true);
    const delta = body.components.messages.realtime_response_output_audio_delta;
    expect(delta.payload.properties.hoot.properties.visemes.type).toBe("array");
    const example = delta.examples[0].payload;
    expect(Object.keys(example.hoot)).toEqual(["duration_sec", "subtitles", "visemes", "marks"]);
    expect(TypeCompiler.Compile(ServerEventSchemas["response.output_audio.delta"]).Check(example)).toBe(true);
    // The example keeps the rule it shows: visemes tile the delta from 0 to duration_sec.
    const end = example.hoot.visemes.reduce((at: number, v: { start_time_sec: number; duration_sec: number }) => {
      expect(v.start_time_sec).toBeCloseTo(at, 6);
      return v.start_time_sec + v.duration_sec;
    }, 0);
    expect(end).toBeCloseTo(example.hoot.duration_sec, 6);
  });
});

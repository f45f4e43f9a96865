/**
 * The AsyncAPI document served at /api/asyncapi.json documents /v1/realtime beside /interact, from the same
 * schemas the server checks client events with and types its own events by (the whole document's validity
 * under the AsyncAPI parser is test/interact/docs.test.ts's).
 */
import { describe, expect, it } from "bun:test";
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
});

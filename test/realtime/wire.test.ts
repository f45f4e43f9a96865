/**
 * /v1/realtime with raw websockets: the browsers' subprotocol credential, the 401 before the upgrade, and the
 * /interact limits on this door too (message size, message rate, sockets per player counted across both
 * doors, revocation, shutdown), plus truncate.
 */
import { describe, expect, it } from "bun:test";
import { eventually, rememberedOf } from "../compat/socket-helpers.ts";
import { api, createPlayer, createTeamFixture, serverForFile, startTestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";
import { RtProbe } from "./helpers/probe.ts";

const file = serverForFile({ HOOT_WS_MAX_SOCKETS_PER_PLAYER: "2", HOOT_WS_MESSAGES_PER_MINUTE: "20", HOOT_WS_MAX_MESSAGE_BYTES: "4096" });

describe("the upgrade", () => {
  it("takes the token from the openai-insecure-api-key subprotocol and selects realtime", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { protocols: ["realtime", `openai-insecure-api-key.${player.token}`, "openai-beta.realtime-v1"] });
    expect(probe.ws.protocol).toBe("realtime");
    expect((await probe.next("session.created")).session.type).toBe("realtime");
    probe.close();
  });

  it("answers 401 with the usual JSON body before any upgrade, for no token, a bad one, or a developer's", async () => {
    const refused: Record<string, string>[] = [{}, { authorization: "Bearer nope" }, { authorization: `Bearer ${file.team.developerToken}` }];
    for (const headers of refused) {
      const res = await api(file.server.url, "GET", "/v1/realtime?model=gpt-realtime", { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), code: "unauthorized" });
      expect(res.headers.get("x-request-id")).toBeTruthy();
    }
    const bad = await RtProbe.open(file.server.url, { protocols: ["realtime", "openai-insecure-api-key.nope"] }).catch((error: Error) => error);
    expect(bad).toBeInstanceOf(Error);
  });

  it("accepts any ?model= and shows the served model", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { token: player.token }, "?model=gpt-realtime-2025-08-28");
    expect((await probe.next("session.created")).session.model).toBe("local");
    probe.close();
  });
});

describe("limits as on /interact", () => {
  it("closes with 1009 after an error event when a message is over the size limit", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { token: player.token });
    await probe.next("session.created");
    probe.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "a".repeat(5000) }] } });
    expect((await probe.next("error")).error).toMatchObject({ code: "message_too_large" });
    expect((await probe.closed).code).toBe(1009);
  });

  it("counts refused appends as messages: malformed audio cannot be sent without limit", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { token: player.token });
    await probe.next("session.created");
    for (let i = 0; i < 25; i++) probe.send({ type: "input_audio_buffer.append", event_id: `evt_${i}`, ...(i % 2 ? { audio: 1 } : {}) });
    expect((await probe.next("error")).error).toMatchObject({ code: "invalid_value", event_id: "evt_0" });
    expect((await probe.closed).code).toBe(4429);
  });

  it("closes with 4429 past the message rate, each client event counted once", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { token: player.token });
    await probe.next("session.created");
    // Each session.update makes two or three interact requests underneath; only the client's events count.
    for (let i = 0; i < 19; i++) probe.send({ type: "session.update", session: { type: "realtime", prompt: null } });
    for (let i = 0; i < 19; i++) await probe.next("session.updated");
    probe.send({ type: "session.update", session: {} });
    await probe.next("session.updated");
    probe.send({ type: "session.update", session: {} });
    expect((await probe.next("error")).error).toMatchObject({ code: "rate_limited" });
    expect((await probe.closed).code).toBe(4429);
  });

  it("counts a player's sockets across /interact and /v1/realtime", async () => {
    const player = await createPlayer(file.server, file.team);
    const interact = await openSession(file.server.url, player.token);
    const first = await RtProbe.open(file.server.url, { token: player.token });
    await first.next("session.created");
    const second = await RtProbe.open(file.server.url, { token: player.token });
    expect((await second.next("error")).error).toMatchObject({ code: "too_many_sockets" });
    expect((await second.closed).code).toBe(4429);
    interact.close();
    first.close();
  });

  it("closes with 4403 when the player is deleted, after an error event", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { token: player.token });
    await probe.next("session.created");
    expect((await api(file.server.url, "DELETE", `/api/players/${player.pk}`, { token: file.team.developerToken })).status).toBe(204);
    expect((await probe.next("error")).error).toMatchObject({ code: "credential_revoked" });
    expect((await probe.closed).code).toBe(4403);
  });

  it("ends a running response and closes with 1001 when the server shuts down", async () => {
    const server = await startTestServer({ HOOT_LOCAL_TOKENS_PER_SECOND: "10" });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const probe = await RtProbe.open(server.url, { token: player.token });
      await probe.next("session.created");
      probe.send({ type: "session.update", session: { output_modalities: ["text"] } });
      await probe.next("session.updated");
      probe.send({ type: "response.create" });
      await probe.next("response.output_text.delta");
      const stopping = server.close();
      expect((await probe.next("response.done")).response.status).toBe("cancelled");
      expect((await probe.next("error")).error).toMatchObject({ code: "server_shutting_down", type: "server_error" });
      expect((await probe.closed).code).toBe(1001);
      await stopping;
    } finally {
      await server.close();
    }
  });
});

describe("conversation.item.truncate", () => {
  it("cuts a finished reply in the history to what was heard up to audio_end_ms", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { token: player.token });
    await probe.next("session.created");
    probe.send({
      type: "conversation.item.create",
      item: { type: "message", role: "user", content: [{ type: "input_text", text: "Tell me about the moon." }] },
    });
    probe.send({ type: "response.create" });
    const done = await probe.next("response.done");
    const { id: itemId, content } = done.response.output[0];
    const transcript: string = content[0].transcript;
    await eventually(async () => (await rememberedOf(file.server, player.pk)).length === 2);
    expect((await rememberedOf(file.server, player.pk))[1]).toEqual({ role: "assistant", text: transcript });
    probe.send({ type: "conversation.item.truncate", item_id: itemId, content_index: 0, audio_end_ms: 800 });
    await probe.next("conversation.item.truncated");
    const remembered = await rememberedOf(file.server, player.pk);
    expect(remembered[0]).toEqual({ role: "user", text: "Tell me about the moon." });
    const kept = remembered[1]?.text ?? "";
    expect(kept.length).toBeLessThan(transcript.length);
    expect(transcript.startsWith(kept)).toBe(true);
    probe.close();
  });

  it("answers conversation.item.truncated for an assistant item, and refuses an unknown item by name", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { token: player.token });
    await probe.next("session.created");
    probe.send({ type: "response.create" });
    const done = await probe.next("response.done");
    const itemId = done.response.output[0].id;
    probe.send({ type: "conversation.item.truncate", item_id: itemId, content_index: 0, audio_end_ms: 300 });
    expect(await probe.next("conversation.item.truncated")).toMatchObject({ item_id: itemId, content_index: 0, audio_end_ms: 300 });
    probe.send({ type: "conversation.item.truncate", event_id: "evt_t", item_id: "item_nope", content_index: 0, audio_end_ms: 10 });
    expect((await probe.next("error")).error).toMatchObject({ code: "item_truncate_invalid_item_id", event_id: "evt_t", param: "item_id" });
    probe.close();
  });
});

describe("conversation.item.truncate cuts only its own reply", () => {
  async function audioTurn(probe: RtProbe, text: string): Promise<{ itemId: string; transcript: string }> {
    probe.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text }] } });
    probe.send({ type: "response.create" });
    const done = await probe.next("response.done");
    return { itemId: done.response.output[0].id, transcript: done.response.output[0].content[0].transcript ?? done.response.output[0].content[0].text };
  }

  it("cuts this socket's reply when another socket of the player has stored a newer turn since", async () => {
    const player = await createPlayer(file.server, file.team);
    const a = await RtProbe.open(file.server.url, { token: player.token });
    await a.next("session.created");
    const mine = await audioTurn(a, "Tell me about the moon.");
    await eventually(async () => (await rememberedOf(file.server, player.pk)).length === 2);
    const b = await RtProbe.open(file.server.url, { token: player.token });
    await b.next("session.created");
    const theirs = await audioTurn(b, "What is a volcano?");
    await eventually(async () => (await rememberedOf(file.server, player.pk)).length === 4);
    expect(theirs.transcript).not.toBe(mine.transcript);
    a.send({ type: "conversation.item.truncate", item_id: mine.itemId, content_index: 0, audio_end_ms: 800 });
    await a.next("conversation.item.truncated");
    const remembered = await rememberedOf(file.server, player.pk);
    expect(remembered[1]!.text.length).toBeLessThan(mine.transcript.length);
    expect(mine.transcript.startsWith(remembered[1]!.text)).toBe(true);
    // The other socket's newer reply is untouched.
    expect(remembered[3]).toEqual({ role: "assistant", text: theirs.transcript });
    a.close();
    b.close();
  });

  it("refuses to truncate a text response (it has no audio) and leaves the history as it was", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { token: player.token });
    await probe.next("session.created");
    probe.send({ type: "session.update", session: { type: "realtime", output_modalities: ["text"] } });
    await probe.next("session.updated");
    const { itemId, transcript } = await audioTurn(probe, "Tell me about the moon.");
    await eventually(async () => (await rememberedOf(file.server, player.pk)).length === 2);
    probe.send({ type: "conversation.item.truncate", event_id: "evt_text", item_id: itemId, content_index: 0, audio_end_ms: 0 });
    expect((await probe.next("error")).error).toMatchObject({ code: "item_truncate_no_audio", event_id: "evt_text", param: "item_id" });
    expect((await rememberedOf(file.server, player.pk))[1]).toEqual({ role: "assistant", text: transcript });
    probe.close();
  });
});

describe("what a client can make the session hold", () => {
  it("refuses user text waiting for a response past the interact text limit, naming it", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await RtProbe.open(file.server.url, { token: player.token });
    await probe.next("session.created");
    const item = (text: string) => ({
      type: "conversation.item.create",
      event_id: "evt_item",
      item: { type: "message", role: "user", content: [{ type: "input_text", text }] },
    });
    for (let i = 0; i < 3; i++) probe.send(item("a".repeat(1000)));
    for (let i = 0; i < 3; i++) await probe.next("conversation.item.done");
    probe.send(item("a".repeat(1001)));
    const refused = await probe.next("error");
    expect(refused.error).toMatchObject({ code: "too_much_pending_input", event_id: "evt_item", param: "item.content" });
    expect(refused.error.message).toContain("4000 characters");
    probe.close();
  });
});

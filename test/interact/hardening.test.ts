/**
 * Websocket findings of issue 9, through the real server: an acknowledged turn is saved first, an oversized
 * message is told why before 1009, and user-supplied names never reach an object's prototype.
 */
import { describe, expect, it } from "bun:test";
import { holdLocks, rawSql } from "../helpers/database.ts";
import { createPlayer, serverForFile } from "../helpers/server.ts";
import { openSession, WsProbe } from "../helpers/ws.ts";

const file = serverForFile();
const rowsOf = (playerId: number) =>
  rawSql(file.server.deps.database, "SELECT role, text FROM conversation_messages WHERE player_id = ? ORDER BY id", playerId);

describe("an acknowledged turn is never lost", () => {
  it("has its history saved by the time interaction_complete arrives", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    const uid = crypto.randomUUID();
    probe.send({ type: "stream", kind: "interact", uid, text: "hello", context: {}, audio_output: false });
    await probe.next((m) => m.uid === uid && m.event === "interaction_complete");
    expect((await rowsOf(player.pk)).map((r) => r.role)).toEqual(["user", "assistant"]);
    probe.close();
  });

  it("ends with interaction_error (history_not_saved) and no interaction_complete when the history cannot be written", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    // Another connection holds the write lock (as an admin command or a backup might) past the busy timeout
    // (PostgreSQL: a lock on the player's row, which every insert of their history waits for).
    const other = await holdLocks(file.server.deps.database, { players: [player.pk] });
    try {
      const { events } = await probe.interact("hello", {}, 20_000);
      const kinds = events.map((e) => e.event ?? e.kind);
      expect(kinds.slice(-3)).toEqual(["text_complete", "interaction_error", "close"]);
      expect(kinds).not.toContain("interaction_complete");
      expect(events.find((e) => e.event === "interaction_error")).toMatchObject({ code: "history_not_saved" });
    } finally {
      await other.release();
    }
    expect(await rowsOf(player.pk)).toEqual([]);
    // The socket is still usable and the next turn is saved.
    const { events } = await probe.interact("hello again");
    expect(events.map((e) => e.event ?? e.kind).slice(-2)).toEqual(["interaction_complete", "close"]);
    expect(await rowsOf(player.pk)).toHaveLength(2);
    probe.close();
  }, 30_000);
});

describe("message size", () => {
  it("says message_too_large before closing with 1009", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    probe.send({ type: "request", kind: "ping", uid: "x".repeat(70 * 1024) });
    const closed = await probe.closed;
    expect(closed.code).toBe(1009);
    expect(probe.messages.at(-1)).toEqual({
      type: "error",
      kind: "error",
      error: `the message is larger than the limit of ${64 * 1024} bytes`,
      code: "message_too_large",
    });
  });

  it("accepts a message just under the limit", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    const answer = await probe.request("ping", { padding: "x".repeat(60 * 1024) });
    // Refused for its unknown field, which means it was read: the socket stays open.
    expect(answer).toMatchObject({ kind: "error", code: "invalid_message" });
    expect((await probe.request("ping")).kind).toBe("ping");
    probe.close();
  });
});

describe("user-supplied names", () => {
  it("refuses merge_configuration with a __proto__ key and never empties the visible configuration", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await WsProbe.open(file.server.url);
    await probe.request("authenticate", { access_token: player.token });
    probe.send('{"type":"request","kind":"merge_configuration","uid":"m1","config":{"__proto__":{"prompt":"You are a secret pirate."}}}');
    expect(await probe.next((m) => m.uid === "m1")).toMatchObject({ kind: "error", code: "invalid_configuration" });
    expect((await probe.request("get_configuration")).config).toEqual({});
    const refused = await probe.interact("hello");
    expect(refused.events[0]).toMatchObject({ kind: "error", error: "session is not configured" });

    await probe.request("set_configuration", { config: { prompt: "You are Zed." } });
    probe.send('{"type":"request","kind":"merge_configuration","uid":"m2","config":{"__proto__":{"prompt":"You are a secret pirate."}}}');
    expect(await probe.next((m) => m.uid === "m2")).toMatchObject({ kind: "error", code: "invalid_configuration" });
    expect((await probe.request("get_configuration")).config).toEqual({ prompt: "You are Zed." });
    probe.close();
  });

  it("never lets the local model say what an object's prototype holds", async () => {
    const player = await createPlayer(file.server, file.team);
    for (const prompt of ["You are Bob the constructor.", "You are the constructor, a builder. Hi {{constructor}}{{__proto__}}{{toString}}!"]) {
      const probe = await openSession(file.server.url, player.token, { prompt });
      for (const text of [".", "hi", "what is your name?", "tell me a story"]) {
        const { events } = await probe.interact(text, { context: { constructor: "x", ["__proto__"]: "y" } });
        const reply = events.find((e) => e.event === "text_complete")!.text as string;
        expect({ prompt, text, reply }).toEqual({ prompt, text, reply: expect.not.stringMatching(/function|native code|\[object/) });
      }
      probe.close();
    }
  });
});

describe("the /interact path without a websocket upgrade", () => {
  it("answers 400 with {error, code} and keeps serving sockets", async () => {
    const res = await fetch(`${file.server.url}/interact`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; code: string };
    expect(body.code).toBe("invalid_request");
    expect(body.error).toContain("websocket");
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    const { events } = await probe.interact("hello", {}, 20_000);
    expect(events.at(-1)?.kind).toBe("close");
    probe.close();
  });

  it("gives every socket its own session, each answered on its own socket", async () => {
    const player = await createPlayer(file.server, file.team);
    const probes = await Promise.all([0, 1, 2].map(() => openSession(file.server.url, player.token)));
    const runs = await Promise.all(probes.map((probe, i) => probe.interact(`hello ${i}`, {}, 20_000)));
    // Each socket hears only its own requests' answers and its own stream.
    for (const [i, { uid, events }] of runs.entries()) {
      expect(events[0]).toMatchObject({ event: "interaction_started" });
      expect(events.at(-1)?.kind).toBe("close");
      const others = runs.filter((_, j) => j !== i).map((r) => r.uid);
      expect(probes[i]!.messages.filter((m) => others.includes(m.uid))).toEqual([]);
      expect(probes[i]!.messages.filter((m) => m.type === "stream").every((m) => m.uid === uid)).toBe(true);
    }
    for (const probe of probes) probe.close();
  });
});

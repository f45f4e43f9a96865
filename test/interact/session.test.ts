/**
 * The session state machine on its own: fakes for the socket, the engine, the history and the authenticator,
 * no server, no database.
 */
import { describe, expect, it } from "bun:test";
import { FakeEngine, harness } from "./helpers/fakes.ts";

const CONFIG = { prompt: "You are Ollie the owl." };

async function ready(options: Parameters<typeof harness>[0] = {}) {
  const h = harness(options);
  await h.request("authenticate", { access_token: "good" });
  await h.request("set_configuration", { config: CONFIG });
  return h;
}

/** A configured session whose turn "i1" (a frame every 30 ms) has sent its first text. */
async function midTurn() {
  const h = await ready({ engine: new FakeEngine(undefined, 30) });
  void h.send({ type: "stream", kind: "interact", uid: "i1", text: "tell me a story" });
  await Bun.sleep(45);
  return h;
}

/** Everything sent, as "uid:event-or-kind", in order. */
const order = (h: Awaited<ReturnType<typeof ready>>) => h.socket.sent.map((m) => `${m.uid}:${m.event ?? m.kind}`);

describe("session: authenticate", () => {
  it("answers only authenticate and ping before authentication, with the exact sentence", async () => {
    const h = harness();
    expect((await h.request("ping")).kind).toBe("ping");
    expect(await h.request("get_configuration")).toMatchObject({ kind: "error", error: "session is not authenticated", code: "not_authenticated" });
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hi" });
    expect(h.socket.stream("i1")).toEqual(["error", "close"]);
    expect(h.session.state).toBe("connected");
    h.session.closed();
  });

  it("admits the player once, and keeps the socket open after a refused token", async () => {
    const h = harness();
    expect(await h.request("authenticate", { access_token: "bad" })).toMatchObject({ kind: "error", code: "unauthorized" });
    expect(h.socket.closedWith).toBeNull();
    expect((await h.request("authenticate", { access_token: "good" })).kind).toBe("authenticate");
    expect(h.session.state).toBe("authenticated");
    expect(h.session.player).toMatchObject({ playerId: 7 });
    expect(h.admitted).toEqual([7]);
    h.session.closed();
  });

  it("closes with 4429 when the player has too many sockets", async () => {
    const h = harness({ admit: false });
    await h.request("authenticate", { access_token: "good" });
    expect(h.socket.sent.at(-1)).toEqual({ type: "error", kind: "error", error: "this player has too many open sockets", code: "too_many_sockets" });
    expect(h.socket.closedWith).toEqual({ code: 4429, reason: "too_many_sockets" });
  });

  it("closes with 1008 when nobody authenticates in time", async () => {
    const h = harness({ limits: { authTimeoutMs: 20 } });
    await Bun.sleep(60);
    expect(h.socket.sent.at(-1)).toMatchObject({ type: "error", code: "auth_timeout" });
    expect(h.socket.closedWith?.code).toBe(1008);
  });
});

describe("session: re-authenticate", () => {
  const soon = () => Date.now() / 1000 + 0.15;
  const later = () => Date.now() / 1000 + 3600;

  it("outlives its token by default, and closes with 4401 (session_expired) at the longest session lifetime", async () => {
    const h = harness({ tokens: { short: { playerId: 7, serviceAccountId: 3, expiresAt: soon() } }, limits: { maxSessionMs: 400 } });
    await h.request("authenticate", { access_token: "short" });
    await Bun.sleep(250);
    expect(h.socket.closedWith).toBeNull();
    expect((await h.request("ping")).kind).toBe("ping");
    await Bun.sleep(250);
    expect(h.socket.sent.at(-1)).toMatchObject({ type: "error", kind: "error", code: "session_expired" });
    expect(h.socket.closedWith).toEqual({ code: 4401, reason: "session_expired" });
  });

  it("closes with 4401 when the token expires, with closeAtTokenExpiry", async () => {
    const h = harness({ tokens: { short: { playerId: 7, serviceAccountId: 3, expiresAt: soon() } }, limits: { closeAtTokenExpiry: true } });
    await h.request("authenticate", { access_token: "short" });
    await Bun.sleep(250);
    expect(h.socket.sent.at(-1)).toMatchObject({ type: "error", code: "token_expired" });
    expect(h.socket.closedWith?.code).toBe(4401);
  });

  it("a fresh token of the same player pushes the expiry back; another player's token is refused", async () => {
    const h = harness({
      limits: { closeAtTokenExpiry: true },
      tokens: {
        short: { playerId: 7, serviceAccountId: 3, expiresAt: soon() },
        fresh: { playerId: 7, serviceAccountId: 3, expiresAt: later() },
        other: { playerId: 8, serviceAccountId: 3, expiresAt: later() },
      },
    });
    await h.request("authenticate", { access_token: "short" });
    expect(await h.request("authenticate", { access_token: "other" })).toMatchObject({ kind: "error", code: "unauthorized" });
    expect((await h.request("authenticate", { access_token: "fresh" })).kind).toBe("authenticate");
    await Bun.sleep(250);
    expect(h.socket.closedWith).toBeNull();
    expect(h.admitted).toEqual([7]);
    h.session.closed();
  });
});

describe("session: configure", () => {
  it("sets, merges and returns the configuration", async () => {
    const h = await ready();
    expect(h.session.state).toBe("configured");
    await h.request("merge_configuration", { config: { voice_profile: { speed: 0.9 }, temperature: 0.5 } });
    expect((await h.request("get_configuration")).config).toEqual({ ...CONFIG, voice_profile: { speed: 0.9 }, temperature: 0.5 });
    h.session.closed();
  });

  it("names the field of a bad configuration and keeps the old one", async () => {
    const h = await ready();
    const cases: [unknown, string][] = [
      [{ prompt: "x", temperature: 3 }, '"config.temperature"'],
      [{ prompt: "x", voice_profile: { speed: "fast" } }, '"config.voice_profile.speed"'],
      [{ prompt: "x", safety_policy: "anything-goes" }, "anything-goes"],
      [{ prompt: "x", safety_policy: "constructor" }, "constructor"],
      [{ prompt: "x", utilities: { weather: { type: "forecast" } } }, "config.utilities.weather.type"],
    ];
    for (const [config, needle] of cases) {
      const res = await h.request("set_configuration", { config });
      expect(res).toMatchObject({ kind: "error", code: "invalid_configuration" });
      expect(res.error).toContain(needle);
    }
    expect((await h.request("get_configuration")).config).toEqual(CONFIG);
    h.session.closed();
  });

  it("refuses a __proto__ or constructor key instead of hiding a configuration behind the prototype", async () => {
    const h = harness();
    await h.request("authenticate", { access_token: "good" });
    // Raw text, as a client sends it: JSON.parse makes "__proto__" an ordinary own key.
    await h.send('{"type":"request","kind":"merge_configuration","uid":"m1","config":{"__proto__":{"prompt":"hidden"}}}');
    expect(h.socket.sent.at(-1)).toMatchObject({ uid: "m1", kind: "error", code: "invalid_configuration" });
    expect((await h.request("get_configuration")).config).toEqual({});
    await h.request("set_configuration", { config: CONFIG });
    await h.send('{"type":"request","kind":"merge_configuration","uid":"m2","config":{"__proto__":{"prompt":"hidden"}}}');
    expect(h.socket.sent.at(-1)).toMatchObject({ uid: "m2", kind: "error", error: 'unknown field "config.__proto__"' });
    await h.send('{"type":"request","kind":"set_configuration","uid":"m3","config":{"prompt":"x","constructor":{"prompt":"hidden"}}}');
    expect(h.socket.sent.at(-1)).toMatchObject({ uid: "m3", kind: "error", error: 'unknown field "config.constructor"' });
    expect((await h.request("get_configuration")).config).toEqual(CONFIG);
    h.session.closed();
  });
});

describe("session: interact", () => {
  it("streams started, the engine's frames, then interaction_complete once saved, then close", async () => {
    const h = await ready();
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hello", context: { level: 3 } });
    await h.session.idle();
    expect(h.socket.stream("i1")).toEqual(["interaction_started", "text", "text", "text_complete", "audio_complete", "interaction_complete", "close"]);
    expect(h.history.records).toEqual([{ playerId: 7, turn: { userText: "hello", reply: "Hi there." } }]);
    expect(h.engine.inputs[0]).toMatchObject({
      text: "hello",
      context: { level: 3 },
      audioOutput: true,
      config: { prompt: CONFIG.prompt, audio_format: "mp3", language_code: "en", safety_policy: "children_strict" },
    });
    h.session.closed();
  });

  it("refuses interact before set_configuration and with empty or too long text", async () => {
    const h = harness();
    await h.request("authenticate", { access_token: "good" });
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hello" });
    expect(h.socket.sent.filter((m) => m.uid === "i1")).toMatchObject([{ kind: "error", error: "session is not configured" }, { kind: "close" }]);
    await h.request("set_configuration", { config: CONFIG });
    await h.send({ type: "stream", kind: "interact", uid: "i2", text: "  " });
    await h.send({ type: "stream", kind: "interact", uid: "i3", text: "x".repeat(101) });
    expect(h.socket.stream("i2")).toEqual(["error", "close"]);
    expect(h.socket.stream("i3")).toEqual(["error", "close"]);
    expect(h.engine.inputs).toHaveLength(0);
    h.session.closed();
  });

  it("acknowledges a turn only after its history is saved", async () => {
    const h = await ready();
    let save = () => {};
    h.history.gate = new Promise<void>((resolve) => (save = resolve));
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hello", audio_output: false });
    await Bun.sleep(20);
    expect(h.socket.stream("i1")).toEqual(["interaction_started", "text", "text", "text_complete"]);
    save();
    await h.session.idle();
    expect(h.socket.stream("i1").slice(-2)).toEqual(["interaction_complete", "close"]);
    h.session.closed();
  });

  it("ends with interaction_error history_not_saved, then close, when saving fails", async () => {
    const h = await ready();
    h.history.failWith = new Error("database is locked");
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hello" });
    await h.session.idle();
    expect(h.socket.stream("i1")).toEqual(["interaction_started", "text", "text", "text_complete", "audio_complete", "interaction_error", "close"]);
    expect(h.socket.sent.find((m) => m.event === "interaction_error")).toMatchObject({ code: "history_not_saved" });
    expect(JSON.stringify(h.socket.sent)).not.toContain("database is locked");
    h.session.closed();
  });

  it("a new interact stops the running one first; its close comes before the new stream starts", async () => {
    const h = await midTurn();
    await h.send({ type: "stream", kind: "interact", uid: "i2", text: "hi" });
    await h.session.idle();
    expect(order(h).indexOf("i1:close")).toBeLessThan(order(h).indexOf("i2:interaction_started"));
    expect(h.socket.stream("i1")).not.toContain("interaction_complete");
    expect(h.socket.stream("i2").slice(-2)).toEqual(["interaction_complete", "close"]);
    h.session.closed();
  });
});

describe("session: interrupt", () => {
  it("stops the target at once, closes its stream before answering, and keeps only what was used", async () => {
    const h = await midTurn();
    const answer = await h.request("interrupt", { target_uid: "i1", at_character: 1 });
    expect(answer).toMatchObject({ kind: "interrupt", target_uid: "i1", interrupted: true });
    expect(order(h).indexOf("i1:close")).toBeLessThan(order(h).indexOf(`${answer.uid}:interrupt`));
    expect(h.socket.stream("i1")).toEqual(["interaction_started", "text", "close"]);
    expect(h.history.records).toEqual([{ playerId: 7, turn: { userText: "tell me a story", reply: "H" } }]);
    expect(await h.request("interrupt", { target_uid: "nothing" })).toMatchObject({ interrupted: false });
    h.session.closed();
  });
});

describe("session: revocation and limits", () => {
  it("on revocation ends the running stream with its close, says why, and closes with 4403", async () => {
    const h = await midTurn();
    await h.session.shutdown("credential_revoked", "the player's credential was revoked or the player was deleted");
    expect(h.socket.stream("i1").at(-1)).toBe("close");
    expect(h.socket.sent.at(-1)).toMatchObject({ type: "error", code: "credential_revoked" });
    expect(h.socket.closedWith).toEqual({ code: 4403, reason: "credential_revoked" });
    expect(h.session.state).toBe("closed");
    await h.request("ping");
    expect(h.socket.sent.at(-1)).toMatchObject({ code: "credential_revoked" });
  });

  it("says why before closing 1009 on a message over the size limit", async () => {
    const h = await ready();
    await h.send({ type: "request", kind: "ping", uid: "x".repeat(2000) });
    expect(h.socket.sent.at(-1)).toEqual({
      type: "error",
      kind: "error",
      error: "the message is larger than the limit of 1024 bytes",
      code: "message_too_large",
    });
    expect(h.socket.closedWith).toEqual({ code: 1009, reason: "message_too_large" });
  });

  it("counts bytes, not characters", async () => {
    const h = await ready();
    await h.send({ type: "request", kind: "ping", uid: "é".repeat(500) });
    expect(h.socket.closedWith?.code).toBe(1009);
  });

  it("closes with 4429 after too many messages in a minute", async () => {
    const h = harness({ limits: { messagesPerMinute: 3 } });
    for (let i = 0; i < 4; i++) await h.send({ type: "request", kind: "ping", uid: `p${i}` });
    expect(h.socket.sent.filter((m) => m.kind === "ping")).toHaveLength(3);
    expect(h.socket.closedWith?.code).toBe(4429);
  });
});

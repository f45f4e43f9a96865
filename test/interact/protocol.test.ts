import { describe, expect, it } from "bun:test";
import { createPlayer, createTeamFixture, serverForFile, startTestServer } from "../helpers/server.ts";
import { openSession, WsProbe } from "../helpers/ws.ts";

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const file = serverForFile();

describe("interact protocol order", () => {
  it("refuses everything but authenticate and ping before authentication, with the exact sentence", async () => {
    const probe = await WsProbe.open(file.server.url);
    expect((await probe.request("ping")).kind).toBe("ping");
    for (const kind of ["set_configuration", "get_configuration", "merge_configuration"]) {
      const res = await probe.request(kind, { config: { prompt: "x" } });
      expect(res).toMatchObject({ type: "response", kind: "error", error: "session is not authenticated" });
    }
    const interact = await probe.interact("hi");
    expect(interact.events.map((e) => [e.type, e.kind])).toEqual([
      ["stream", "error"],
      ["stream", "close"],
    ]);
    expect(interact.events[0]).toMatchObject({ error: "session is not authenticated" });
    // Even an unknown kind gets that sentence before authentication.
    expect(await probe.request("dance")).toMatchObject({ kind: "error", error: "session is not authenticated" });
    probe.close();
  });

  it("refuses interact before set_configuration", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await WsProbe.open(file.server.url);
    await probe.request("authenticate", { access_token: player.token });
    const res = await probe.interact("hello");
    expect(res.events[0]).toMatchObject({ type: "stream", kind: "error", error: "session is not configured", uid: res.uid });
    expect(res.events[1]).toMatchObject({ type: "stream", kind: "close", uid: res.uid });
    expect(res.events).toHaveLength(2);
    probe.close();
  });

  it("answers authenticate and set_configuration with uid, echoed client time and server times", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await WsProbe.open(file.server.url);
    const uid = crypto.randomUUID();
    probe.send({ type: "request", kind: "authenticate", uid, client_start_time: "2026-11-22T09:41:07.123Z", access_token: player.token });
    const auth = await probe.next((m) => m.uid === uid);
    expect(auth).toMatchObject({ type: "response", kind: "authenticate", uid, client_start_time: "2026-11-22T09:41:07.123000Z" });
    expect(auth.server_start_time).toMatch(TIME);
    expect(auth.server_end_time).toMatch(TIME);
    expect(auth.server_end_time >= auth.server_start_time).toBe(true);
    const conf = await probe.request("set_configuration", { config: { prompt: "You are Pip." } });
    expect(conf).toMatchObject({ type: "response", kind: "set_configuration" });
    const got = await probe.request("get_configuration");
    expect(got.config).toEqual({ prompt: "You are Pip." });
    probe.close();
  });

  it("streams an interaction: started, text, text_complete, complete, then close with the same uid and times", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    const { uid, events } = await probe.interact("Hello!");
    const kinds = events.map((e) => (e.kind === "close" ? "close" : e.event));
    expect(kinds[0]).toBe("interaction_started");
    expect(kinds.slice(-3)).toEqual(["text_complete", "interaction_complete", "close"]);
    expect(kinds.filter((k) => k === "text").length).toBeGreaterThan(0);
    for (const e of events) {
      expect(e.uid).toBe(uid);
      expect(e.type).toBe("stream");
      expect(e.server_start_time).toMatch(TIME);
      expect(e.server_end_time).toMatch(TIME);
      expect(e.client_start_time).toMatch(TIME);
    }
    const text = events
      .filter((e) => e.event === "text")
      .map((e) => e.text)
      .join("");
    expect(events.find((e) => e.event === "text_complete")!.text).toBe(text);
    probe.close();
  });

  it("answers malformed JSON, non-objects, unknown kinds, wrong types and unknown fields with clear errors and stays usable", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    probe.send("{not json");
    expect(await probe.next()).toMatchObject({ kind: "error", error: "the message is not valid JSON" });
    probe.send("[1,2]");
    expect(await probe.next()).toMatchObject({ kind: "error", error: "the message must be a JSON object" });
    expect(await probe.request("dance")).toMatchObject({ kind: "error", error: "unknown request kind", code: "unknown_kind" });
    const wrongType = (await probe.interact("x", { text: 42 })).events;
    expect(wrongType[0]).toMatchObject({ type: "stream", kind: "error", code: "invalid_message" });
    expect(wrongType[0]!.error).toContain('"text"');
    expect(wrongType[1]).toMatchObject({ type: "stream", kind: "close" });
    const extra = await probe.request("ping", { surprise: 1 });
    expect(extra.error).toContain('"surprise"');
    const badTime = await probe.request("ping", { client_start_time: 20261122 });
    expect(badTime.error).toContain("client_start_time");
    // A string it cannot parse (a device's local form) is echoed as it came, never refused.
    expect(await probe.request("ping", { client_start_time: "2026-11-22T09.41.07.123456Z" })).toMatchObject({
      kind: "ping",
      client_start_time: "2026-11-22T09.41.07.123456Z",
    });
    const tooLong = await probe.interact("a".repeat(4001));
    expect(tooLong.events[0].error).toContain("4000");
    expect((await probe.request("ping")).kind).toBe("ping");
    probe.close();
  });

  it("names the field of a bad configuration", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await WsProbe.open(file.server.url);
    await probe.request("authenticate", { access_token: player.token });
    const cases: [unknown, string][] = [
      [{}, '"config.prompt"'],
      [{ prompt: "x", temperature: 3 }, '"config.temperature"'],
      [{ prompt: "x", colour: "red" }, '"config.colour"'],
      [{ prompt: "x", voice_profile: { speed: "fast" } }, '"config.voice_profile.speed"'],
      [{ prompt: "x", voice_profile: { reference: "darth" } }, "darth"],
      [{ prompt: "x", safety_policy: "anything-goes" }, "anything-goes"],
      [{ prompt: "x", utilities: { weather: "weather" } }, "weather"],
      [{ prompt: "x", audio_format: "ogg" }, '"config.audio_format"'],
    ];
    for (const [config, needle] of cases) {
      const res = await probe.request("set_configuration", { config });
      expect(res.kind).toBe("error");
      expect(res.error).toContain(needle);
    }
    const merged = await probe.request("merge_configuration", { config: { prompt: "You are Zed." } });
    expect(merged.kind).toBe("merge_configuration");
    await probe.request("merge_configuration", { config: { voice_profile: { speed: 0.9 }, temperature: 0.5 } });
    expect((await probe.request("get_configuration")).config).toEqual({ prompt: "You are Zed.", voice_profile: { speed: 0.9 }, temperature: 0.5 });
    probe.close();
  });

  it("refuses a developer token and a bad token on authenticate", async () => {
    const probe = await WsProbe.open(file.server.url);
    expect(await probe.request("authenticate", { access_token: file.team.developerToken })).toMatchObject({ kind: "error", code: "unauthorized" });
    expect(await probe.request("authenticate", { access_token: "x.y.z" })).toMatchObject({ kind: "error", code: "unauthorized" });
    probe.close();
  });
});

describe("interruption", () => {
  it("a new interact interrupts the running one: its stream closes first", async () => {
    const slow = await startTestServer({ HOOT_LOCAL_TOKENS_PER_SECOND: "20" });
    try {
      const t = await createTeamFixture(slow);
      const player = await createPlayer(slow, t);
      const probe = await openSession(slow.url, player.token);
      const first = crypto.randomUUID();
      probe.send({ type: "stream", kind: "interact", uid: first, text: "Tell me a long story about a dragon", context: {}, audio_output: false });
      await probe.next((m) => m.uid === first && m.event === "text");
      const second = await probe.interact("Hi!");
      const firstEvents = probe.messages.filter((m) => m.uid === first);
      const firstClose = probe.messages.findIndex((m) => m.uid === first && m.kind === "close");
      const secondStart = probe.messages.findIndex((m) => m.uid === second.uid);
      expect(firstClose).toBeGreaterThan(-1);
      expect(firstClose).toBeLessThan(secondStart);
      expect(firstEvents.some((m) => m.event === "interaction_complete")).toBe(false);
      expect(second.events.at(-1)!.kind).toBe("close");
      probe.close();
    } finally {
      await slow.close();
    }
  });
});

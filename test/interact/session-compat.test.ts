/**
 * The session's rules for the hosted engine's clients, on fakes: liberal in what it accepts (null and "" as
 * absent, other providers' voice fields, configuration defaults, local client times), symmetrical streams
 * (the client's own close or error), and an answer for every request kind the SDKs define.
 */
import { describe, expect, it } from "bun:test";
import { FakeEngine, harness } from "./helpers/fakes.ts";

const CONFIG = { prompt: "You are Ollie the owl." };

async function ready(options: Parameters<typeof harness>[0] = {}, config: Record<string, unknown> = CONFIG) {
  const h = harness(options);
  await h.request("authenticate", { access_token: "good" });
  const configured = await h.request("set_configuration", { config });
  if (configured.kind !== "set_configuration") throw new Error(JSON.stringify(configured));
  return h;
}

describe("session: the client ends its own stream", () => {
  for (const kind of ["close", "error"]) {
    it(`a stream ${kind} stops the running turn at once; nothing more goes out with its uid; the history keeps what was sent`, async () => {
      const h = await ready({ engine: new FakeEngine(undefined, 30) });
      void h.send({ type: "stream", kind: "interact", uid: "i1", text: "tell me a story", audio_output: false });
      await Bun.sleep(45);
      const before = h.socket.sent.length;
      await h.send({ type: "stream", kind, uid: "i1", ...(kind === "error" ? { error: "gone" } : {}) });
      await h.session.idle();
      await Bun.sleep(80);
      expect(h.socket.sent.slice(before)).toEqual([]);
      expect(h.socket.stream("i1")).toEqual(["interaction_started", "text"]);
      expect(h.history.records).toEqual([{ playerId: 7, turn: { userText: "tell me a story", reply: "Hi" } }]);
      // The socket goes on: the next interaction runs to its end.
      await h.send({ type: "stream", kind: "interact", uid: "i2", text: "hi", audio_output: false });
      await h.session.idle();
      expect(h.socket.stream("i2").slice(-2)).toEqual(["interaction_complete", "close"]);
      h.session.closed();
    });
  }

  it("ignores a stream close or error for a uid that is not running (unknown, or already ended), before and after authenticating", async () => {
    const h = harness();
    await h.send({ type: "stream", kind: "close", uid: "nobody" });
    await h.request("authenticate", { access_token: "good" });
    await h.request("set_configuration", { config: CONFIG });
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hi" });
    await h.session.idle();
    const before = h.socket.sent.length;
    // The Python SDK answers a message for a stream it has already forgotten with a stream error.
    await h.send({ type: "stream", kind: "error", uid: "i1", error: "Incoming streams are not supported" });
    await h.send({ type: "stream", kind: "close", uid: "i1" });
    await h.send({ type: "stream", kind: "close", uid: "never-seen" });
    await h.send({ type: "stream", kind: "error", uid: "" });
    expect(h.socket.sent.slice(before)).toEqual([]);
    expect(h.socket.closedWith).toBeNull();
    h.session.closed();
  });

  it("ignores the Python SDK's top-level error and debug messages", async () => {
    const h = await ready();
    const before = h.socket.sent.length;
    await h.send({ type: "error", error: "Unexpected message format" });
    await h.send({ type: "debug", message: "hello" });
    expect(h.socket.sent.slice(before)).toEqual([]);
    h.session.closed();
  });

  it("counts stream ends toward the message rate", async () => {
    const h = harness({ limits: { messagesPerMinute: 3 } });
    for (let i = 0; i < 4; i++) await h.send({ type: "stream", kind: "close", uid: `s${i}` });
    expect(h.socket.closedWith?.code).toBe(4429);
  });
});

describe("session: every request kind of the SDKs gets an answer", () => {
  it("answers kinds it does not serve with unsupported_request naming the kind, and stays open", async () => {
    const h = await ready();
    const requests: [string, Record<string, unknown>][] = [
      ["add_keywords", { keywords: ["owl"] }],
      ["remove_keywords", { keywords: ["owl"] }],
      ["detect_keywords", {}],
      ["add_speaker", { speaker: "mia", audio: "AAAA" }],
      ["remove_speakers", { speakers: ["mia"] }],
      ["detect_speakers", {}],
      ["generate_image", { prompt: "an owl", provider: "bria", generation_type: "fast" }],
    ];
    for (const [kind, fields] of requests) {
      const answer = await h.request(kind, fields);
      expect({ kind, answer }).toMatchObject({ kind, answer: { type: "response", kind: "error", code: "unsupported_request" } });
      expect(answer.error).toContain(kind);
    }
    expect(h.socket.closedWith).toBeNull();
    h.session.closed();
  });

  it("merge_configuration: the Python SDK's empty references change nothing; a config merges; an unknown reference is named", async () => {
    const h = await ready();
    expect(await h.request("merge_configuration", { references: [{ reference: "base_config" }] })).toMatchObject({ kind: "error", code: "unknown_reference" });
    expect(await h.request("merge_configuration", { references: [] })).toMatchObject({ kind: "merge_configuration", utilities: [] });
    expect((await h.request("merge_configuration", { config: { temperature: 0.3 }, references: [] })).kind).toBe("merge_configuration");
    expect((await h.request("get_configuration")).config).toEqual({ ...CONFIG, temperature: 0.3 });
    h.session.closed();
  });

  it("clear_audio succeeds (the buffer is empty), also before a configuration", async () => {
    const h = harness();
    await h.request("authenticate", { access_token: "good" });
    expect(await h.request("clear_audio")).toMatchObject({ type: "response", kind: "clear_audio" });
    h.session.closed();
  });

  it("lists the models and picks one by name or by default; another name fails naming it", async () => {
    const h = await ready();
    expect(await h.request("get_available_models")).toMatchObject({ kind: "get_available_models", models: { local: "the local stand-in" } });
    for (const name of ["default", "", "local"]) expect((await h.request("set_service_profile", { service_profile: name })).kind).toBe("set_service_profile");
    const refused = await h.request("set_service_profile", { service_profile: "gpt-9" });
    expect(refused).toMatchObject({ kind: "error", code: "unknown_service_profile" });
    expect(refused.error).toContain('"gpt-9"');
    h.session.closed();
  });

  it("still says unknown request kind for a kind no SDK defines", async () => {
    const h = await ready();
    expect(await h.request("dance")).toMatchObject({ kind: "error", code: "unknown_kind", error: "unknown request kind" });
    h.session.closed();
  });

  it("get_configuration always succeeds: {} before a configuration is set", async () => {
    const h = harness();
    await h.request("authenticate", { access_token: "good" });
    expect(await h.request("get_configuration")).toMatchObject({ kind: "get_configuration", config: {} });
    h.session.closed();
  });
});

describe("session: liberal in, exact out", () => {
  it("treats null as absent everywhere and returns the configuration without its nulls", async () => {
    const h = await ready({}, { prompt: "You are Pip.", temperature: null, safety_policy: null, voice_profile: null, utilities: {}, debug: false });
    expect((await h.request("get_configuration")).config).toEqual({ prompt: "You are Pip.", utilities: {}, debug: false });
    await h.send({
      type: "stream",
      kind: "interact",
      uid: "i1",
      client_start_time: null,
      text: "hi",
      context: { a: null, b: 1 },
      on_input: null,
      audio_output: null,
      language_code: null,
    });
    await h.session.idle();
    expect(h.engine.inputs[0]).toMatchObject({ text: "hi", context: { b: 1 }, audioOutput: true, config: { language_code: "en" } });
    expect(h.socket.sent.find((m) => m.uid === "i1")!.client_start_time).toBeNull();
    h.session.closed();
  });

  it('takes "default" and "" as hoot\'s defaults for the policy, the voice and a reference', async () => {
    for (const config of [
      { prompt: "x", safety_policy: "default", voice_profile: { voice_id: "default" } },
      { prompt: "x", safety_policy: "", voice_profile: { voice_id: "" }, language_code: "" },
      { prompt: "x", safety_policy: { reference: "default" }, voice_profile: { reference: "" } },
    ]) {
      const h = await ready({}, config);
      await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hi" });
      await h.session.idle();
      expect(h.engine.inputs[0]!.config).toMatchObject({ safety_policy: "children_strict", language_code: "en" });
      expect(h.engine.inputs[0]!.config.voice_profile ?? {}).toEqual({});
      h.session.closed();
    }
  });

  it("accepts another provider's voice profile: 0 is unset, speed is clamped, an unknown voice falls back, and get_configuration returns it as set", async () => {
    const unity = {
      provider: "elevenlabs",
      voice_id: "21m00Tcm4TlvDq8ikWAM",
      speed: 0.0,
      stability: 0.0,
      similarity_boost: 0.0,
      elevenlabs_model: "eleven_turbo_v2_5",
    };
    const h = await ready({}, { ...CONFIG, voice_profile: unity });
    expect((await h.request("get_configuration")).config.voice_profile).toEqual(unity);
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hi" });
    await h.session.idle();
    expect(h.engine.inputs[0]!.config.voice_profile).toEqual({});
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { provider: 0, voice_id: "owl", speed: 1.5 },
        { voice_id: "owl", speed: 1.2 },
      ],
      [{ provider: "deepdub", speed: 0.2, deepdub_model: "dd-etts-2.5", deepdub_tempo: 1.0, deepdub_variance: 0.5, deepdub_locale: "en-US" }, { speed: 0.7 }],
      [
        { speed: 0.9, pitch: 0, deepdub_accent_base_locale: "en-US", deepdub_accent_locale: "en-GB", deepdub_accent_ratio: 0.5, deepdub_clean_audio: true },
        { speed: 0.9 },
      ],
    ];
    for (const [profile, voice] of cases) {
      expect((await h.request("set_configuration", { config: { ...CONFIG, voice_profile: profile } })).kind).toBe("set_configuration");
      await h.send({ type: "stream", kind: "interact", uid: crypto.randomUUID(), text: "hi" });
      await h.session.idle();
      expect(h.engine.inputs.at(-1)!.config.voice_profile).toEqual(voice);
    }
    const typo = await h.request("set_configuration", { config: { ...CONFIG, voice_profile: { voice_id: "owl", stabilty: 0.5 } } });
    expect(typo).toMatchObject({ kind: "error", code: "invalid_configuration", error: 'unknown field "config.voice_profile.stabilty"' });
    h.session.closed();
  });

  it("uses the configuration's context, audio_output and language_code as defaults each interact may override, and stores the app's labels", async () => {
    const config = {
      ...CONFIG,
      app_name: "Owl Quest",
      app_description: "A game",
      version: "1.2",
      format_version: "3",
      context: { conversation_history: "", level: 2, tags: ["a", "b"] },
      audio_output: false,
      language_code: "en-GB",
      on_input: [],
      on_output: [],
    };
    const h = await ready({}, config);
    expect((await h.request("get_configuration")).config).toEqual(config);
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hi", context: { level: 3 } });
    await h.send({ type: "stream", kind: "interact", uid: "i2", text: "hi", audio_output: true, language_code: "fr", speakers: [] });
    await h.session.idle();
    expect(h.engine.inputs[0]).toMatchObject({
      context: { conversation_history: "", level: 3, tags: '["a","b"]' },
      audioOutput: false,
      config: { language_code: "en-GB" },
    });
    expect(h.engine.inputs[1]).toMatchObject({ context: { level: 2 }, audioOutput: true, config: { language_code: "fr" } });
    h.session.closed();
  });

  it("refuses a field no client sends, naming it", async () => {
    const h = await ready();
    expect(await h.request("set_configuration", { config: { ...CONFIG, colour: "red" } })).toMatchObject({ error: 'unknown field "config.colour"' });
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hi", speaker: [] });
    expect(h.socket.sent.find((m) => m.uid === "i1")).toMatchObject({ kind: "error", error: 'unknown field "speaker"' });
    expect(await h.request("ping", { surprise: 1 })).toMatchObject({ error: 'unknown field "surprise"' });
    h.session.closed();
  });

  it("echoes a client time it cannot parse as it came, and normalises one it can", async () => {
    const h = harness();
    const times: [string, string][] = [
      ["2026-11-22T09.41.07.123456Z", "2026-11-22T09.41.07.123456Z"],
      ["2569-11-22T09:41:07.123456Z", "2569-11-22T09:41:07.123456Z"],
      ["2026-11-22T09:41:07.123Z", "2026-11-22T09:41:07.123000Z"],
      ["yesterday", "yesterday"],
    ];
    for (const [sent, echoed] of times) {
      await h.send({ type: "request", kind: "ping", uid: sent, client_start_time: sent });
      expect(h.socket.sent.at(-1)).toMatchObject({ kind: "ping", client_start_time: echoed });
    }
    h.session.closed();
  });

  it("an interact without text (a voice turn) with nothing buffered gets a clear stream error (no_audio) and never a reply", async () => {
    const h = await ready();
    await h.send({
      type: "stream",
      kind: "interact",
      uid: "v1",
      speakers: [],
      context: {},
      on_input: [],
      on_output: [],
      audio_output: true,
      language_code: "en",
    });
    await h.send({ type: "stream", kind: "interact", uid: "v2", text: "" });
    await h.send({ type: "stream", kind: "interact", uid: "v3", text: "  " });
    for (const uid of ["v1", "v2", "v3"]) {
      expect(h.socket.stream(uid)).toEqual(["error", "close"]);
      expect(h.socket.sent.find((m) => m.uid === uid)).toMatchObject({ code: "no_audio" });
      expect(h.socket.sent.find((m) => m.uid === uid)!.error).toContain("add_audio");
    }
    expect(h.engine.inputs).toHaveLength(0);
    h.session.closed();
  });

  it("sends audio_complete before interaction_error when a reply that asked for audio fails", async () => {
    const engine = new FakeEngine([
      { type: "text", text: "Hi" },
      { type: "error", error: "the language model failed", code: "llm_unavailable" },
    ]);
    const h = await ready({ engine });
    await h.send({ type: "stream", kind: "interact", uid: "i1", text: "hello" });
    await h.send({ type: "stream", kind: "interact", uid: "i2", text: "hello", audio_output: false });
    await h.session.idle();
    expect(h.socket.stream("i1")).toEqual(["interaction_started", "text", "audio_complete", "interaction_error", "close"]);
    expect(h.socket.stream("i2")).toEqual(["interaction_started", "text", "interaction_error", "close"]);
    h.session.closed();
  });
});

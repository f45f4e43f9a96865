/**
 * The socket half of the hosted engine's Python SDK (uglabs/ug-python-sdk: ug_python_sdk/rpc/rpc.py,
 * client/session.py, messages.py), replayed message by message as it writes them: `json.dumps` of
 * `{"type", "uid"} | model_dump(mode="json", exclude_none=True)`, so optional fields are absent rather than null,
 * `client_start_time` has six fractional digits, and an interact always carries `text`, `speakers`, `context`,
 * the three utility lists, `audio_output` and `language_code`.
 *
 * `PythonRpc` below reads what comes back as the SDK's receive loop does, because that loop is fragile: a
 * response whose uid it is not waiting for raises inside the loop and ends it (every later call then hangs),
 * and a stream message for a uid it does not know is taken for a new incoming stream and answered with a
 * stream error. So every test checks that the loop never broke and no stream came from nowhere.
 */
import { afterAll, describe, expect, it } from "bun:test";
import { chunks, envelopeMatch, resampled, speech, wavBytes } from "../engine/voice-in/helpers/speech.ts";
import { startFakeOpenAi } from "../helpers/fake-openai.ts";
import { api, createPlayer, serverForFile } from "../helpers/server.ts";
import { dumps, eventually, float, isStandardBase64, pythonNow, rememberedOf } from "./socket-helpers.ts";

type Msg = Record<string, any>;

// Voice turns go to a fake OpenAI-compatible transcription server on loopback.
const stt = startFakeOpenAi();
afterAll(() => stt.stop());
// Paced like a real model (40 tokens a second), so a story is still streaming when the app walks away.
const file = serverForFile({ HOOT_LOCAL_TOKENS_PER_SECOND: "40", HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url });

/** `base64.encodebytes`, as the SDK's Base64 type serialises bytes: a line break every 76 characters and after the last. */
const encodebytes = (bytes: Uint8Array) =>
  `${Buffer.from(bytes)
    .toString("base64")
    .match(/.{1,76}/g)!
    .join("\n")}\n`;

/** The Python SDK's RPC over one socket: its sends, and its receive loop's reading of every message. */
class PythonRpc {
  readonly received: Msg[] = [];
  /** Why the SDK's receive loop would have ended or misbehaved (must stay empty). */
  readonly problems: string[] = [];
  /** Stream errors the SDK answered with, for messages of streams it no longer knows. */
  readonly answeredNewStreams: string[] = [];
  private readonly futures = new Map<string, (m: Msg) => void>();
  private readonly streams = new Map<string, Msg[]>();
  private wake: (() => void) | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => this.onMessage(JSON.parse(String(e.data)) as Msg);
  }

  static async connect(url: string): Promise<PythonRpc> {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/interact`);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("could not connect"));
    });
    return new PythonRpc(ws);
  }

  private send(message: Msg): void {
    this.ws.send(dumps(message, "python"));
  }

  private onMessage(m: Msg): void {
    this.received.push(m);
    this.wake?.();
    // RPC._on_message's match statement, in order.
    if (m.type === "response" && typeof m.uid === "string" && typeof m.kind === "string") {
      const future = this.futures.get(m.uid);
      if (!future) this.problems.push(`response for a uid it is not waiting for (the receive loop ends): ${JSON.stringify(m).slice(0, 200)}`);
      else if (m.kind === "error" && typeof m.error !== "string") this.problems.push("error response without an error sentence");
      else {
        this.futures.delete(m.uid);
        future(m);
      }
    } else if (m.type === "stream" && typeof m.uid === "string" && typeof m.kind === "string") {
      const queue = this.streams.get(m.uid);
      if (queue) queue.push(m);
      else this.answerAsNewStream(m.uid);
    } else if (m.type === "error" && typeof m.error === "string") {
      this.problems.push(`top-level error: ${m.error}`);
    } else if (!(m.type === "debug" && typeof m.message === "string")) {
      this.problems.push(`unexpected message format: ${JSON.stringify(m).slice(0, 200)}`);
    }
  }

  /** on_new_stream without a handler: send_stream_error(uid, "Incoming streams are not supported"). */
  answerAsNewStream(uid: string): void {
    this.answeredNewStreams.push(uid);
    this.send({ type: "stream", uid, kind: "error", error: "Incoming streams are not supported" });
  }

  /** make_request: `{"type":"request","uid",…fields}` with `client_start_time` set first, as Session._make_request does. */
  request(kind: string, fields: Msg = {}, ms = 10_000): Promise<Msg> {
    const uid = crypto.randomUUID();
    const answer = new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${kind}`)), ms);
      this.futures.set(uid, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    this.send({ type: "request", uid, kind, client_start_time: pythonNow(), ...fields });
    return answer;
  }

  /** `session.interact(...)`: opens a stream and sends the InteractRequest on it. */
  openInteract(fields: Msg): PythonStream {
    const uid = crypto.randomUUID();
    this.streams.set(uid, []);
    this.send({
      type: "stream",
      uid,
      kind: "interact",
      client_start_time: pythonNow(),
      text: "",
      speakers: [],
      context: {},
      on_input: [],
      on_input_non_blocking: [],
      on_output: [],
      audio_output: true,
      language_code: "en",
      ...fields,
    });
    return new PythonStream(this, uid);
  }

  /** The next message of stream `uid` (Stream.recv), or null once the stream has ended. */
  async recv(uid: string, ms = 15_000): Promise<Msg | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const queue = this.streams.get(uid);
      if (!queue) return null;
      const m = queue.shift();
      if (m) {
        if (m.kind === "close" || m.kind === "error") this.streams.delete(uid);
        if (m.kind === "error") throw new Error(String(m.error));
        return m.kind === "close" ? null : m;
      }
      if (Date.now() > deadline) throw new Error(`stream ${uid} timed out`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Stream.close(): `{"type":"stream","uid","kind":"close"}`, then the SDK forgets the uid. */
  closeStream(uid: string): void {
    this.send({ type: "stream", uid, kind: "close" });
    this.streams.delete(uid);
  }

  close(): void {
    this.ws.close();
  }
}

class PythonStream {
  constructor(
    private readonly rpc: PythonRpc,
    readonly uid: string,
  ) {}

  /** `async for event in stream` to the end. */
  async all(): Promise<Msg[]> {
    const events: Msg[] = [];
    for (let m = await this.rpc.recv(this.uid); m; m = await this.rpc.recv(this.uid)) events.push(m);
    return events;
  }
}

const rpcs: PythonRpc[] = [];
afterAll(() => rpcs.forEach((r) => r.close()));

/** Client.login as a player, then `async with client.session()`: authenticate is sent and not awaited. */
async function session(): Promise<{ rpc: PythonRpc; auth: Promise<Msg>; player: Awaited<ReturnType<typeof createPlayer>> }> {
  const player = await createPlayer(file.server, file.team);
  const rpc = await PythonRpc.connect(file.server.url);
  rpcs.push(rpc);
  return { rpc, auth: rpc.request("authenticate", { access_token: player.token }), player };
}

/** The README's configuration (without its utilities, which arrive with the utilities issue). */
const README_CONFIG = {
  prompt: "You are a helpful customer service agent for Acme Corp.",
  temperature: float(0.7),
  utilities: {},
  safety_policy: "default",
  voice_profile: { provider: "elevenlabs", voice_id: "your-voice-id", stability: float(0.5), similarity_boost: float(0.75) },
  debug: false,
};

function expectHealthy(rpc: PythonRpc): void {
  expect(rpc.problems).toEqual([]);
  expect(rpc.received.filter((m) => m.kind === "error" && m.type === "response").map((m) => m.error)).not.toContain("unknown request kind");
}

describe("Python SDK over the socket", () => {
  it("quick start: configures while authenticate is still in flight, then streams a reply the SDK reads event by event", async () => {
    const { rpc, auth } = await session();
    const configured = rpc.request("set_configuration", {
      config: { prompt: "You are a helpful assistant.", temperature: float(0.7), utilities: {}, debug: false },
    });
    expect((await auth).kind).toBe("authenticate");
    expect((await configured).kind).toBe("set_configuration");
    const events = await rpc.openInteract({ text: "Hello, how are you?" }).all();
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("interaction_started");
    expect(names.slice(-3)).toEqual(["text_complete", "audio_complete", "interaction_complete"]);
    // (Not toMatchObject with expect.any: Bun 1.4 writes the matcher into the received object.)
    for (const e of events) expect([e.type, e.kind, typeof e.event]).toEqual(["stream", "interact", "string"]);
    const text = events.filter((e) => e.event === "text");
    expect(text.length).toBeGreaterThan(0);
    for (const e of text) expect(typeof e.text).toBe("string");
    const audio = events.filter((e) => e.event === "audio");
    expect(audio.length).toBeGreaterThan(0);
    // base64.decodebytes reads standard padded base64 only.
    for (const e of audio) expect(isStandardBase64(e.audio)).toBe(true);
    // pydantic's AwareDatetime parses the times of every message.
    for (const e of events)
      for (const key of ["client_start_time", "server_start_time", "server_end_time"]) expect(e[key]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect((await rpc.request("ping")).kind).toBe("ping");
    expect(rpc.answeredNewStreams).toEqual([]);
    expectHealthy(rpc);
  }, 30_000);

  it('takes the README\'s configuration (ElevenLabs and Deepdub voices, safety_policy "default") and get_configuration returns it as set', async () => {
    const { rpc, auth } = await session();
    await auth;
    expect((await rpc.request("set_configuration", { config: README_CONFIG })).kind).toBe("set_configuration");
    const got = await rpc.request("get_configuration");
    expect(got.kind).toBe("get_configuration");
    expect(got.config).toEqual(JSON.parse(dumps(README_CONFIG, "python")));
    const deepdub = {
      prompt: "You are Ollie the owl.",
      utilities: {},
      voice_profile: {
        provider: "deepdub",
        voice_id: "voice-prompt-id",
        deepdub_model: "dd-etts-2.5",
        deepdub_tempo: float(1.0),
        deepdub_variance: float(0.5),
        deepdub_locale: "en-US",
        deepdub_accent_base_locale: "en-US",
        deepdub_accent_locale: "en-GB",
        deepdub_accent_ratio: float(0.5),
        deepdub_clean_audio: true,
      },
      debug: false,
    };
    expect((await rpc.request("set_configuration", { config: deepdub })).kind).toBe("set_configuration");
    expect((await rpc.request("get_configuration")).config).toEqual(JSON.parse(dumps(deepdub, "python")));
    const events = await rpc.openInteract({ text: "hi" }).all();
    expect(events.at(-1)!.event).toBe("interaction_complete");
    expectHealthy(rpc);
  }, 30_000);

  it("leaving an interaction early sends the stream's close: the reply stops, nothing more comes with its uid, the history keeps what was sent", async () => {
    const { rpc, auth, player } = await session();
    await auth;
    await rpc.request("set_configuration", { config: { prompt: "You are Ollie the owl.", utilities: {}, debug: false } });
    const stream = rpc.openInteract({ text: "Tell me a long story about a dragon", audio_output: false });
    // `async for event in stream: if event["event"] == "text": break` leaves the `with` block: Stream.close().
    for (let m = await rpc.recv(stream.uid); m; m = await rpc.recv(stream.uid)) if (m.event === "text") break;
    rpc.closeStream(stream.uid);
    const closedAt = rpc.received.length;
    await Bun.sleep(1500);
    // Messages already on the wire when the close was sent may still arrive; after them, nothing.
    const late = rpc.received.slice(closedAt).filter((m) => m.uid === stream.uid);
    expect(late.map((m) => m.event ?? m.kind)).not.toContain("interaction_complete");
    expect(late.map((m) => m.kind)).not.toContain("close");
    expect(late.length).toBeLessThan(3);
    // What the SDK received is exactly what is remembered.
    const sent = rpc.received
      .filter((m) => m.uid === stream.uid && m.event === "text")
      .map((m) => m.text)
      .join("");
    await eventually(async () => (await rememberedOf(file.server, player.pk)).length === 2);
    expect(await rememberedOf(file.server, player.pk)).toEqual([
      { role: "user", text: "Tell me a long story about a dragon" },
      { role: "assistant", text: sent },
    ]);
    // The session goes on.
    expect((await rpc.request("ping")).kind).toBe("ping");
    const next = await rpc.openInteract({ text: "hi", audio_output: false }).all();
    expect(next.at(-1)!.event).toBe("interaction_complete");
    expectHealthy(rpc);
  }, 30_000);

  it("a refused interact raises in the SDK, which answers the close that follows with a stream error: hoot ignores it", async () => {
    const { rpc, auth } = await session();
    await auth;
    await rpc.request("set_configuration", { config: { prompt: "You are Ollie the owl.", utilities: {}, debug: false } });
    // text="" is the SDK's default (a voice turn); with nothing buffered it is refused as a stream.
    const stream = rpc.openInteract({});
    await expect(stream.all()).rejects.toThrow("no buffered audio");
    // Whether the close came before or after the SDK read the error depends on timing; in the second case the
    // SDK takes the close for a new stream and answers it with a stream error. Send that answer either way.
    await eventually(() => rpc.received.some((m) => m.uid === stream.uid && m.kind === "close"));
    if (!rpc.answeredNewStreams.includes(stream.uid)) rpc.answerAsNewStream(stream.uid);
    const before = rpc.received.length;
    expect((await rpc.request("ping")).kind).toBe("ping");
    expect(rpc.received.slice(before).filter((m) => m.uid === stream.uid)).toEqual([]);
    expectHealthy(rpc);
  }, 30_000);

  it("interrupt, sent as the message model defines it, stops the running interaction after its close", async () => {
    const { rpc, auth } = await session();
    await auth;
    await rpc.request("set_configuration", { config: { prompt: "You are Ollie the owl.", utilities: {}, debug: false } });
    const stream = rpc.openInteract({ text: "Tell me a long story about a dragon", audio_output: false });
    await rpc.recv(stream.uid);
    const answer = await rpc.request("interrupt", { target_uid: stream.uid, at_character: 3 });
    expect(answer.kind).toBe("interrupt");
    const rest = await stream.all();
    expect(rest.map((e) => e.event)).not.toContain("interaction_complete");
    expectHealthy(rpc);
  }, 30_000);

  it("answers every request kind of the message model with a response carrying its uid", async () => {
    const token = file.team.developerToken;
    for (const [name, config] of Object.entries({
      production_config: { prompt: "You are Ollie the owl, in production." },
      base_config: { prompt: "You are Ollie the owl.", temperature: 0.5 },
      voice_override: { voice_profile: { speed: 0.9 } },
    })) {
      expect((await api(file.server.url, "PUT", `/api/configs/${name}`, { token, body: { config } })).status).toBeLessThan(300);
    }
    const { rpc, auth } = await session();
    await auth;
    await rpc.request("set_configuration", { config: { prompt: "You are Ollie the owl.", utilities: {}, debug: false } });
    // One second of the sentence (a message stays under the 64 KiB limit).
    const wav = wavBytes(resampled(await speech(), 16000).subarray(6400, 22400), 16000, 1, "int16");
    const requests: [string, Msg, string][] = [
      ["ping", {}, "ping"],
      ["set_service_profile", { service_profile: "default" }, "set_service_profile"],
      ["get_available_models", {}, "get_available_models"],
      ["clear_audio", {}, "clear_audio"],
      ["get_configuration", {}, "get_configuration"],
      ["add_audio", { audio: encodebytes(wav), config: { mime_type: "audio/wav", sampling_rate: 16000 } }, "add_audio"],
      ["check_turn", {}, "check_turn"],
      ["transcribe", { language_code: "en" }, "transcribe"],
      ["add_keywords", { keywords: ["owl"] }, "error"],
      ["remove_keywords", { keywords: ["owl"] }, "error"],
      ["detect_keywords", {}, "error"],
      ["add_speaker", { speaker: "mia", audio: encodebytes(wav.subarray(0, 3000)) }, "error"],
      ["remove_speakers", { speakers: ["mia"] }, "error"],
      ["detect_speakers", {}, "error"],
      ["generate_image", { prompt: "an owl", provider: "bria", generation_type: "fast" }, "error"],
      // The README's references, stored by the team beforehand.
      ["merge_configuration", { references: [{ reference: "base_config" }, { reference: "voice_override" }] }, "merge_configuration"],
      ["render_prompt", { context: { player_name: "Mia" } }, "render_prompt"],
      ["run", { utilities: [], context: {}, bindings: {} }, "run"],
      ["set_configuration", { config: { reference: "production_config" } }, "set_configuration"],
    ];
    for (const [kind, fields, answered] of requests) {
      const answer = await rpc.request(kind, fields);
      expect({ kind, answered: answer.kind }).toEqual({ kind, answered });
      if (answer.kind === "error") expect({ kind, code: answer.code }).toEqual({ kind, code: "unsupported_request" });
    }
    // CheckTurnResponse.is_user_still_speaking: bool; TranscribeResponse.text: str.
    expect(typeof (await rpc.request("check_turn")).is_user_still_speaking).toBe("boolean");
    const models = await rpc.request("get_available_models");
    // GetAvailableModelsResponse.models: dict[str, str].
    expect(Object.values(models.models).every((d) => typeof d === "string")).toBe(true);
    expectHealthy(rpc);
  }, 30_000);
  it('voice input as the SDK sends it: add_audio (encodebytes, an AudioConfig without sampling_rate), check_turn, transcribe, then interact(text="")', async () => {
    const { rpc, auth, player } = await session();
    await auth;
    await rpc.request("set_configuration", { config: { prompt: "You are Ollie the owl.", utilities: {}, debug: false } });
    const spoken = await speech();
    // AudioConfig(mime_type="audio/pcm"): model_dump(exclude_none=True) leaves sampling_rate out (16 kHz is assumed).
    const pcm = new Uint8Array(spoken.buffer, spoken.byteOffset, spoken.byteLength);
    const turns: boolean[] = [];
    for (const part of chunks(pcm, 8000)) {
      expect((await rpc.request("add_audio", { audio: encodebytes(part), config: { mime_type: "audio/pcm" } })).kind).toBe("add_audio");
      turns.push((await rpc.request("check_turn")).is_user_still_speaking);
    }
    expect(turns[0]).toBe(false);
    expect(turns).toContain(true);
    expect(turns.at(-1)).toBe(false);
    const before = stt.transcriptions.length;
    const transcribed = await rpc.request("transcribe", { language_code: "en" });
    expect(transcribed).toMatchObject({ type: "response", kind: "transcribe", text: "I want to play with my puppy" });
    expect(envelopeMatch(spoken, stt.transcriptions[before]!.samples!)).toBeGreaterThan(0.98);
    // session.interact() with its default text="": the buffered voice.
    const events = await rpc.openInteract({}).all();
    expect(events.map((e) => e.event).slice(0, 2)).toEqual(["interaction_started", "transcript"]);
    expect(events[1]!.text).toBe("I want to play with my puppy");
    expect(events.at(-1)!.event).toBe("interaction_complete");
    expect((await rememberedOf(file.server, player.pk)).at(-2)).toEqual({ role: "user", text: "I want to play with my puppy" });
    // Consumed: a second interact(text="") raises in the SDK (a stream error), and the loop lives on.
    await expect(rpc.openInteract({}).all()).rejects.toThrow("no buffered audio");
    expect((await rpc.request("ping")).kind).toBe("ping");
    expect(rpc.answeredNewStreams).toEqual([]);
    expectHealthy(rpc);
  }, 30_000);
});

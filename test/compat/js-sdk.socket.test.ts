/**
 * The socket half of the hosted engine's browser SDK (uglabs/ug-js-sdk: src/ug-core/network/ConversationNetwork.ts,
 * WebSocketConnection.ts, types/index.ts), replayed message by message as it builds them: plain objects through
 * JSON.stringify (undefined fields left out, `client_start_time` from `new Date().toISOString()`, three
 * fractional digits), on a socket at `apiUrl` without its trailing `/api` plus `/interact`, opened by a page
 * (so with an `Origin`). On open it authenticates, sets the configuration, then sends `"."` so the character
 * speaks first.
 *
 * `JsNetwork` reads what comes back as ConversationNetwork.onMessage does: a message whose uid is pending
 * resolves (or, for kind "error", rejects) that request; for a stream, `close` resolves it, `error` is reported
 * as an error and anything else goes to the playback manager; a message with no pending uid is only passed on
 * when its kind is "interact", reported when it is "error", and otherwise logged as unmatched.
 */
import { afterAll, describe, expect, it } from "bun:test";
import { chunks, envelopeMatch, fixture, speech } from "../engine/voice-in/helpers/speech.ts";
import { startFakeOpenAi } from "../helpers/fake-openai.ts";
import { createPlayer, serverForFile } from "../helpers/server.ts";
import { type Msg, WsProbe } from "../helpers/ws.ts";
import { isStandardBase64, mp3Frames, rememberedOf } from "./socket-helpers.ts";

// Voice turns go to a fake OpenAI-compatible transcription server on loopback.
const stt = startFakeOpenAi();
afterAll(() => stt.stop());
const file = serverForFile({ HOOT_LOCAL_TOKENS_PER_SECOND: "40", HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url });
const ORIGIN = "http://localhost:5173";

class JsNetwork {
  /** What the SDK would report through its Error event. */
  readonly errors: string[] = [];
  /** Messages it would log as "Received message without a matching request UID". */
  readonly unmatched: Msg[] = [];
  /** Stream messages it hands to the playback manager, by uid. */
  readonly played = new Map<string, Msg[]>();
  private readonly pending = new Map<string, { resolve: (m: Msg) => void; reject: (e: string) => void; isStream: boolean }>();
  private seen = 0;
  private readonly timer = setInterval(() => this.pump(), 5);
  private constructor(readonly probe: WsProbe) {}

  /** `apiUrl.replace(/\/api\/?$/, "") + "/interact"`, from a page. */
  static async connect(apiUrl: string): Promise<JsNetwork> {
    return new JsNetwork(await WsProbe.open(apiUrl.replace(/\/api\/?$/, ""), { Origin: ORIGIN }));
  }

  private pump(): void {
    while (this.seen < this.probe.messages.length) this.onMessage(this.probe.messages[this.seen++]!);
  }

  private onMessage(message: Msg): void {
    const promise = message.uid ? this.pending.get(message.uid) : undefined;
    if (promise) {
      if (promise.isStream) {
        if (message.kind === "close") {
          promise.resolve(message);
          this.pending.delete(message.uid);
        } else if (message.kind === "error") this.errors.push(message.error);
        else this.play(message);
      } else {
        if (message.kind === "error") promise.reject(message.error);
        else promise.resolve(message);
        this.pending.delete(message.uid);
      }
    } else if (message.kind === "interact") this.play(message);
    else if (message.kind === "error") this.errors.push(message.error);
    else this.unmatched.push(message);
  }

  private play(message: Msg): void {
    const list = this.played.get(message.uid) ?? [];
    list.push(message);
    this.played.set(message.uid, list);
  }

  /** makeRequestInternal: uid and client_start_time are set on the request object, then it is sent. */
  send(request: Msg, isStream = false): { uid: string; done: Promise<Msg> } {
    request.uid = crypto.randomUUID();
    request.client_start_time = new Date().toISOString();
    const done = new Promise<Msg>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error(`Request ${request.uid} timed out`)), 20_000);
      this.pending.set(request.uid, {
        resolve: (m) => {
          clearTimeout(timeout);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timeout);
          reject(new Error(e));
        },
        isStream,
      });
    });
    this.probe.send(JSON.stringify(request));
    return { uid: request.uid, done };
  }

  /** ConversationNetwork.interact: context merged over the config's, audio_output from the capabilities. */
  interact(request: Msg, config: { context?: Msg; audio?: boolean }): { uid: string; done: Promise<Msg> } {
    request.context = { ...config.context, ...request.context };
    request.audio_output = config.audio ?? true;
    request.kind = request.kind ?? "interact";
    request.type = request.type ?? "stream";
    return this.send(request, true);
  }

  close(): void {
    clearInterval(this.timer);
    this.probe.close();
  }
}

const networks: JsNetwork[] = [];
afterAll(() => networks.forEach((n) => n.close()));

/** `ConversationManager.initialize()`: login (HTTP), connect, then authenticate and set_configuration in onOpen. */
async function initialize(config: { prompt: string; voiceProfile?: Msg; utilities?: Msg; safetyPolicy?: string }) {
  const player = await createPlayer(file.server, file.team);
  const network = await JsNetwork.connect(`${file.server.url}/api`);
  networks.push(network);
  await network.send({ type: "request", kind: "authenticate", access_token: player.token, uid: "" }).done;
  const configured = await network.send({
    type: "request",
    kind: "set_configuration",
    config: { prompt: config.prompt, voice_profile: config.voiceProfile, utilities: config.utilities, safety_policy: config.safetyPolicy },
    uid: "",
  }).done;
  return { network, player, configured };
}

const DEMO_PROMPT = "a game of Scattergories where the user needs to say a country that starts with the letter C. for example - user can guess Canada";

describe("browser SDK over the socket", () => {
  it("initialize: authenticates, configures, and the character speaks first on '.'; audio the player can decode", async () => {
    const { network, configured } = await initialize({ prompt: DEMO_PROMPT });
    expect(configured.kind).toBe("set_configuration");
    // Three fractional digits in, six out.
    expect(configured.client_start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000Z$/);
    const greeting = network.interact({ text: ".", uid: "", kind: "interact", type: "stream" }, {});
    expect((await greeting.done).kind).toBe("close");
    const events = network.played.get(greeting.uid)!;
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("interaction_started");
    expect(names.slice(-3)).toEqual(["text_complete", "audio_complete", "interaction_complete"]);
    const audio = events.filter((e) => e.event === "audio");
    expect(audio.length).toBeGreaterThan(0);
    for (const e of audio) {
      expect(e.mime_type).toBe("audio/mpeg");
      expect(isStandardBase64(e.audio)).toBe(true);
      // MP3FrameExtractor cuts frames from each message: every message is whole frames.
      expect(mp3Frames(new Uint8Array(Buffer.from(e.audio, "base64"))).length).toBeGreaterThan(0);
    }
    expect(names.lastIndexOf("audio")).toBeLessThan(names.indexOf("audio_complete"));
    expect(network.errors).toEqual([]);
    expect(network.unmatched).toEqual([]);
  }, 30_000);

  it("takes a configuration with the SDK's voice profile, safety policy, utilities and context", async () => {
    const { network, configured } = await initialize({
      prompt: "You are Ollie the owl, a kind friend.",
      voiceProfile: { voice_id: "21m00Tcm4TlvDq8ikWAM", speed: 1.1, stability: 0.5, similarity_boost: 0.75 },
      utilities: {},
      safetyPolicy: "default",
    });
    expect(configured.kind).toBe("set_configuration");
    const reply = network.interact(
      { text: "What is 3 plus 4?", kind: "interact", type: "stream", uid: "" },
      { context: { player_name: "Mia", level: 2, sound: true } },
    );
    expect((await reply.done).kind).toBe("close");
    expect(
      network.played
        .get(reply.uid)!
        .map((e) => e.event)
        .at(-1),
    ).toBe("interaction_complete");
    expect(network.errors).toEqual([]);
    expect(network.unmatched).toEqual([]);
  }, 30_000);

  it("sendText while the greeting still streams: the greeting's stream closes first, then the new one runs to its end", async () => {
    const { network } = await initialize({ prompt: "You are Ollie the owl, a kind friend." });
    const greeting = network.interact({ text: "Tell me a long story about the moon", uid: "", kind: "interact", type: "stream" }, { audio: false });
    while (!network.played.get(greeting.uid)?.some((e) => e.event === "text")) await Bun.sleep(10);
    const text = network.interact({ text: "Hi!", kind: "interact", type: "stream", uid: "" }, { audio: false });
    const [first, second] = await Promise.all([greeting.done, text.done]);
    expect(first.kind).toBe("close");
    expect(second.kind).toBe("close");
    const order = network.probe.messages.map((m) => `${m.uid}:${m.event ?? m.kind}`);
    expect(order.indexOf(`${greeting.uid}:close`)).toBeLessThan(order.indexOf(`${text.uid}:interaction_started`));
    expect(network.played.get(greeting.uid)!.map((e) => e.event)).not.toContain("interaction_complete");
    expect(
      network.played
        .get(text.uid)!
        .map((e) => e.event)
        .at(-1),
    ).toBe("interaction_complete");
    expect(network.unmatched).toEqual([]);
  }, 30_000);

  it("voice input: MediaRecorder's WebM/Opus chunks as Chromium cuts them (a first chunk of one byte, 0x1A) labelled audio/mpeg at 48 kHz, check_turn after its own VAD hears silence, then interactAudio; the transcript and the reply are played", async () => {
    const { network, player } = await initialize({ prompt: "You are Ollie the owl, a kind friend." });
    const greeting = network.interact({ text: ".", uid: "", kind: "interact", type: "stream" }, {});
    await greeting.done;
    // sendAudio -> addAudio: every 100 ms chunk of the recording (start(100)), btoa of its bytes, `audioConfig`.
    const webm = fixture("puppy.webm");
    // Chromium's first dataavailable chunk is the single byte 0x1A; the rest of the header follows in the next.
    const recording = [webm.subarray(0, 1), ...chunks(webm.subarray(1), Math.ceil(webm.length / 40))];
    const added = recording.map((chunk) =>
      network.send({
        type: "request",
        kind: "add_audio",
        audio: Buffer.from(chunk).toString("base64"),
        uid: "",
        config: { sampling_rate: 48000, mime_type: "audio/mpeg" },
      }),
    );
    for (const a of added) expect((await a.done).kind).toBe("add_audio");
    // VadManager's Silence event: checkTurn; ConversationManager calls interactAudio when the answer is false.
    const turn = await network.send({ type: "request", kind: "check_turn", uid: "" }).done;
    expect(turn).toMatchObject({ kind: "check_turn", is_user_still_speaking: false });
    const before = stt.transcriptions.length;
    const voice = network.send({ type: "stream", kind: "interact", context: {}, audio_output: true, uid: "" }, true);
    expect((await voice.done).kind).toBe("close");
    const played = network.played.get(voice.uid)!;
    expect(played.map((m) => m.event).slice(0, 2)).toEqual(["interaction_started", "transcript"]);
    expect(played[1]).toMatchObject({ kind: "interact", text: "I want to play with my puppy" });
    expect(played.map((m) => m.event)).toContain("audio");
    expect(played.at(-1)!.event).toBe("interaction_complete");
    expect(envelopeMatch(await speech(), stt.transcriptions[before]!.samples!)).toBeGreaterThan(0.9);
    expect((await rememberedOf(file.server, player.pk)).at(-2)).toEqual({ role: "user", text: "I want to play with my puppy" });
    expect(network.errors).toEqual([]);
    expect(network.unmatched).toEqual([]);
  }, 30_000);

  it("answers every request kind its types define with a response carrying the request's uid", async () => {
    const { network } = await initialize({ prompt: "You are Ollie the owl, a kind friend." });
    const requests: [string, Msg, string][] = [
      ["ping", {}, "ping"],
      ["set_service_profile", { service_profile: "default" }, "set_service_profile"],
      ["clear_audio", {}, "clear_audio"],
      ["get_configuration", {}, "get_configuration"],
      ["merge_configuration", { config: { temperature: 0.4 } }, "merge_configuration"],
      ["interrupt", { target_uid: crypto.randomUUID() }, "interrupt"],
      // Nothing is buffered on this socket: the sentence names the request.
      ["transcribe", { language_code: "en" }, "error"],
      ["add_keywords", { keywords: ["canada"] }, "error"],
      ["remove_keywords", { keywords: ["canada"] }, "error"],
      ["detect_keywords", {}, "error"],
      ["add_speaker", { speaker: "mia", audio: "AAAA" }, "error"],
      ["remove_speakers", { speakers: ["mia"] }, "error"],
      ["detect_speakers", {}, "error"],
      ["merge_configuration", { references: [] }, "merge_configuration"],
      ["render_prompt", { context: { player_name: "Mia" } }, "render_prompt"],
      ["run", { utilities: [], context: {}, bindings: {} }, "run"],
    ];
    for (const [kind, fields, answered] of requests) {
      const request = network.send({ type: "request", kind, uid: "", ...fields });
      const answer = await request.done.catch((e: Error) => ({ kind: "error", error: e.message }));
      expect({ kind, answered: answer.kind }).toEqual({ kind, answered });
      if (answer.kind === "error") expect(answer.error).toContain(kind);
    }
    expect(network.probe.messages.find((m) => m.error === "unknown request kind")).toBeUndefined();
    expect(network.unmatched).toEqual([]);
  }, 30_000);
});

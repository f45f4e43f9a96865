/**
 * The socket half of the hosted engine's Unity SDK (uglabs/ug-unity-sdk: Runtime/Managers/ConversationManager.cs,
 * DialogueManager.cs, ConversationConfiguration.cs, Runtime/Models/WebSocketRequestMessages.cs,
 * Runtime/Services/WebSocket/WebSocketService.cs, Runtime/Services/AudioStreamingService/), replayed message by
 * message as Newtonsoft serialises it: compact JSON, null members left out (NullValueHandling.Ignore), C# value
 * types always present (`temperature`, `audio_output`, the voice profile's `speed`, `stability`,
 * `similarity_boost` as `0.0` when unset), and `client_start_time` written with the device's culture.
 *
 * `UnityClient` reads what comes back as ConversationManager.ParseResponse and OnResponseReceived do. Unity
 * ends its conversation for good (state Error) on any message whose `kind` is "error" (responses, stream
 * errors and connection errors alike), so the normal flow must have none. It plays MP3 at a fixed 44,100 Hz
 * mono, finding frames by their sync bytes, and starts a reply under 16 KB only on `audio_complete`.
 */
import { afterAll, describe, expect, it } from "bun:test";
import { unityChunks, withSerial } from "../engine/voice-in/helpers/ogg.ts";
import { envelopeMatch, fixture, speech } from "../engine/voice-in/helpers/speech.ts";
import { startFakeOpenAi } from "../helpers/fake-openai.ts";
import { api, createPlayer, createTeamFixture, login, serverForFile, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { type Msg, WsProbe } from "../helpers/ws.ts";
import { dumps, eventually, float, isStandardBase64, mp3Frames, rememberedOf, unityNow } from "./socket-helpers.ts";

// Voice turns go to a fake OpenAI-compatible transcription server on loopback.
const stt = startFakeOpenAi();
afterAll(() => stt.stop());
const file = serverForFile({ HOOT_STT_PROVIDER: "openai", HOOT_STT_BASE_URL: stt.url });

type Culture = Parameters<typeof unityNow>[0];

/** ConversationConfiguration as Newtonsoft writes it with NullValueHandling.Ignore (the Basic sample's values by default). */
function unityConfiguration(overrides: Msg = {}): Msg {
  return {
    app_name: undefined,
    app_description: undefined,
    version: undefined,
    format_version: undefined,
    prompt: "Be polite, respond in 1 sentence only",
    temperature: float(0.5),
    utilities: {},
    context: {},
    language_code: undefined,
    audio_output: false,
    on_input: [],
    on_output: [],
    safety_policy: undefined,
    voice_profile: undefined,
    debug: false,
    ...overrides,
  };
}

/** VoiceProfile as Newtonsoft writes it when the app set only a voice: the value types are 0.0. */
function unityVoiceProfile(overrides: Msg = {}): Msg {
  return { provider: "elevenlabs", voice_id: "21m00Tcm4TlvDq8ikWAM", speed: float(0), stability: float(0), similarity_boost: float(0), ...overrides };
}

class UnityClient {
  private constructor(
    readonly probe: WsProbe,
    private readonly culture: Culture,
  ) {}

  /** AuthenticationManager's login (HTTP), then WebSocketService.Connect: `Authorization: Bearer <token>`, no Origin. */
  static async connect(server: TestServer, token: string, culture: Culture = "en-US"): Promise<UnityClient> {
    return new UnityClient(await WsProbe.open(server.url, { Authorization: `Bearer ${token}` }), culture);
  }

  private send(message: Msg): string {
    const uid = crypto.randomUUID();
    this.probe.send(dumps({ type: message.type ?? "request", uid, kind: message.kind, client_start_time: unityNow(this.culture), ...message }, "dotnet"));
    return uid;
  }

  authenticate(token: string): string {
    return this.send({ kind: "authenticate", access_token: token });
  }
  setConfiguration(config: Msg): string {
    return this.send({ kind: "set_configuration", config });
  }
  getConfiguration(): string {
    return this.send({ kind: "get_configuration" });
  }
  clearAudio(): string {
    return this.send({ kind: "clear_audio" });
  }
  /**
   * StartAddingMicrophoneAudioData: the encoder's Ogg pages, accumulated to 512 bytes or more, as
   * Convert.ToBase64String, with `new AudioConfig { SampleRate = 16000, MimeType = "audio/ogg" }`.
   */
  addAudio(chunk: Uint8Array): string {
    return this.send({ kind: "add_audio", audio: Buffer.from(chunk).toString("base64"), config: { sampling_rate: 16000, mime_type: "audio/ogg" } });
  }
  /** Messages.CreateInteractMessage: every field but a null text. */
  interact(text: string | undefined, config: Msg, audioOutput = true): string {
    return this.send({
      type: "stream",
      kind: "interact",
      text,
      speakers: [],
      context: config.context,
      on_input: config.on_input,
      on_output: config.on_output,
      audio_output: audioOutput,
      language_code: config.language_code ?? "en",
    });
  }
  request(kind: string, fields: Msg): string {
    return this.send({ kind, ...fields });
  }

  /** InteractSendStream: authenticate and set_configuration, get_configuration, then the start command, without waiting. */
  start(token: string, config: Msg, startCommand = "[start conversation]"): { auth: string; set: string; get: string; interact: string } {
    return { auth: this.authenticate(token), set: this.setConfiguration(config), get: this.getConfiguration(), interact: this.interact(startCommand, config) };
  }

  /** DialogueManager.InteractSendStream for a character's new socket: authenticate, set_configuration, the start command. */
  startDialogue(token: string, config: Msg): { auth: string; set: string; interact: string } {
    return { auth: this.authenticate(token), set: this.setConfiguration(config), interact: this.interact("[start conversation]", config) };
  }

  /** Every message of the interaction `uid` up to its close. */
  stream(uid: string, ms = 30_000): Promise<Msg[]> {
    return this.probe.collect(uid, ms);
  }

  /** What ends a Unity conversation: any message whose kind is "error". */
  get errors(): Msg[] {
    return this.probe.messages.filter((m) => m.kind === "error");
  }

  /** ParseResponse + the GetConfigurationResponse case: Newtonsoft reads `config` into ConfigurationData and logs its members. */
  static readConfiguration(m: Msg): void {
    const config = m.config;
    expect(config !== null && typeof config === "object").toBe(true);
    expect(config.prompt === undefined || typeof config.prompt === "string").toBe(true);
    // float Temperature: a null or a string would throw in Newtonsoft.
    expect(config.temperature === undefined || typeof config.temperature === "number").toBe(true);
    for (const key of ["context", "utilities"])
      expect(config[key] === undefined || (typeof config[key] === "object" && !Array.isArray(config[key]))).toBe(true);
  }
}

/** Where each message of the conversation arrived, as "uid:event-or-kind". */
const order = (client: UnityClient) => client.probe.messages.map((m) => `${m.uid}:${m.event ?? m.kind}`);

/** Unity's login body: `""` for what the inspector left empty, and an empty bearer. */
async function unityLogin(server: TestServer, team: TeamFixture, federatedId: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { authorization: "Bearer", "content-type": "application/json; charset=utf-8" },
    body: dumps({ api_key: team.publicKey, team_name: "", federated_id: federatedId }, "dotnet"),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function unityPlayer(server: TestServer = file.server, team: TeamFixture = file.team) {
  const player = await createPlayer(server, team);
  return { ...player, token: await unityLogin(server, team, player.federatedId) };
}

describe("Unity SDK over the socket", () => {
  it("StartConversation: the four pipelined messages are answered in order, nothing of kind error, and the reply as Unity plays it", async () => {
    const player = await unityPlayer();
    const unity = await UnityClient.connect(file.server, player.token);
    const config = unityConfiguration();
    const sent = unity.start(player.token, config);
    const events = await unity.stream(sent.interact);
    const at = order(unity);
    expect(at.indexOf(`${sent.auth}:authenticate`)).toBe(0);
    expect(at.indexOf(`${sent.set}:set_configuration`)).toBe(1);
    expect(at.indexOf(`${sent.get}:get_configuration`)).toBe(2);
    expect(at.indexOf(`${sent.interact}:interaction_started`)).toBe(3);
    const got = unity.probe.messages[2]!;
    UnityClient.readConfiguration(got);
    expect(got.config).toEqual(JSON.parse(dumps(config, "dotnet")));
    const names = events.map((e) => e.event ?? e.kind);
    expect(names.slice(-4)).toEqual(["text_complete", "audio_complete", "interaction_complete", "close"]);
    const audio = events.filter((e) => e.event === "audio");
    expect(audio.length).toBeGreaterThan(0);
    // AudioCompleteEvent comes after the last AudioEvent (Unity plays what is left and reopens the microphone then).
    expect(names.lastIndexOf("audio")).toBeLessThan(names.indexOf("audio_complete"));
    // Convert.FromBase64String: standard base64 with padding.
    for (const e of audio) expect(isStandardBase64(e.audio)).toBe(true);
    expect(unity.errors).toEqual([]);
    unity.probe.close();
  }, 30_000);

  it("every audio event is 44.1 kHz mono MPEG-1 Layer III frames without CRC, starting FF FB (Unity plays at a fixed 44,100 Hz)", async () => {
    const player = await unityPlayer();
    const unity = await UnityClient.connect(file.server, player.token);
    const sent = unity.start(player.token, unityConfiguration());
    const audio = (await unity.stream(sent.interact)).filter((e) => e.event === "audio");
    expect(audio.length).toBeGreaterThan(0);
    for (const e of audio) {
      expect(e.sample_rate).toBe(44100);
      const bytes = new Uint8Array(Buffer.from(e.audio, "base64"));
      expect(Buffer.from(bytes.subarray(0, 2)).toString("hex")).toBe("fffb");
      for (const frame of mp3Frames(bytes)) expect(frame).toEqual({ sync: "fffb", mpeg1: true, layer: 3, crc: false, sampleRate: 44100, mono: true });
    }
    unity.probe.close();
  }, 30_000);

  it("SendTextMessage and ResumeConversation: clear_audio first (it succeeds), then the text; a short reply still ends with audio_complete", async () => {
    const player = await unityPlayer();
    const unity = await UnityClient.connect(file.server, player.token);
    const config = unityConfiguration();
    const sent = unity.start(player.token, config);
    await unity.stream(sent.interact);
    for (const text of ["hi", "[resume after short pause]"]) {
      const cleared = unity.clearAudio();
      const uid = unity.interact(text, config);
      const events = await unity.stream(uid);
      expect(unity.probe.messages.find((m) => m.uid === cleared)).toMatchObject({ type: "response", kind: "clear_audio" });
      const names = events.map((e) => e.event ?? e.kind);
      expect(names).toContain("audio");
      expect(names.slice(-4)).toEqual(["text_complete", "audio_complete", "interaction_complete", "close"]);
    }
    // SendTextMessage(text, isAudioOutput: false): no audio, no audio_complete.
    const quiet = await unity.stream(unity.interact("hello", config, false));
    expect(quiet.map((e) => e.event ?? e.kind)).not.toContain("audio_complete");
    expect(unity.errors).toEqual([]);
    unity.probe.close();
  }, 60_000);

  it("takes every member ConversationConfiguration can carry, voice profiles with 0.0 for unset values (provider as a name or as 0), and returns them", async () => {
    const player = await unityPlayer();
    const unity = await UnityClient.connect(file.server, player.token);
    const config = unityConfiguration({
      app_name: "Owl Quest",
      app_description: "A forest adventure for 5 to 7 year olds",
      version: "1.4.2",
      format_version: "2",
      context: { player_name: "Mia", level: 3, has_pet: true },
      language_code: "en-US",
      audio_output: true,
      on_input: [],
      on_output: [],
      safety_policy: "default",
      voice_profile: unityVoiceProfile({ elevenlabs_model: "eleven_flash_v2_5", deepdub_tempo: float(1), deepdub_clean_audio: false }),
    });
    const sent = unity.start(player.token, config);
    await unity.stream(sent.interact);
    const got = unity.probe.messages.find((m) => m.uid === sent.get)!;
    UnityClient.readConfiguration(got);
    expect(got.config).toEqual(JSON.parse(dumps(config, "dotnet")));
    // The enum written without its string converter is a number; the empty strings of the inspector are absent values.
    const older = unityConfiguration({ safety_policy: "", voice_profile: unityVoiceProfile({ provider: 0, voice_id: "" }) });
    const set = unity.setConfiguration(older);
    const uid = unity.interact("hi", older);
    expect((await unity.stream(uid)).map((e) => e.event ?? e.kind).slice(-2)).toEqual(["interaction_complete", "close"]);
    expect(unity.probe.messages.find((m) => m.uid === set)!.kind).toBe("set_configuration");
    expect(unity.errors).toEqual([]);
    unity.probe.close();
  }, 30_000);

  it("echoes client_start_time written on Finnish and Thai devices as it came", async () => {
    for (const culture of ["fi-FI", "th-TH"] as const) {
      const player = await unityPlayer();
      const unity = await UnityClient.connect(file.server, player.token, culture);
      const sent = unity.start(player.token, unityConfiguration());
      const events = await unity.stream(sent.interact);
      for (const m of [...unity.probe.messages.slice(0, 3), ...events]) {
        const sentTime = culture === "fi-FI" ? /^\d{4}-\d\d-\d\dT\d\d\.\d\d\.\d\d\.\d{6}Z$/ : /^25\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
        expect({ culture, time: m.client_start_time }).toEqual({ culture, time: expect.stringMatching(sentTime) });
      }
      expect(unity.errors).toEqual([]);
      unity.probe.close();
    }
  }, 30_000);

  it("DialogueManager: five character sockets for one player, a long conversation_history in every context; a sixth socket is told why and closed", async () => {
    const player = await unityPlayer();
    const characters = ["You are Ollie the owl.", "You are Bella the cat.", "You are Zip the robot.", "You are Puff the dragon.", "You are Luna the fox."];
    // A dialogue that has gone on for a while: a few thousand characters, past any per-value cap.
    const history: string[] = Array.from(
      { length: 60 },
      (_, i) => `player_turn_${i % 5}: and then we found ${i} shiny stones by the river, which was wonderful`,
    );
    const sockets: UnityClient[] = [];
    let previous = "";
    for (const [i, prompt] of characters.entries()) {
      const config = unityConfiguration({ prompt, context: { conversation_history: history.join("\n") } });
      expect(config.context.conversation_history.length).toBeGreaterThan(4000);
      const unity = await UnityClient.connect(file.server, player.token);
      sockets.push(unity);
      const sent = unity.startDialogue(player.token, config);
      const events = await unity.stream(sent.interact);
      expect(events.map((e) => e.event ?? e.kind).slice(-2)).toEqual(["interaction_complete", "close"]);
      previous = `player_turn_${i}: ${events
        .filter((e) => e.event === "text")
        .map((e) => e.text)
        .join("")}`;
      history.push(previous);
    }
    // Back to the first character, on its open socket: the previous line as text, the whole dialogue in the context.
    const first = sockets[0]!;
    const again = await first.stream(first.interact(previous, unityConfiguration({ context: { conversation_history: history.join("\n") } })));
    expect(again.map((e) => e.event ?? e.kind).slice(-2)).toEqual(["interaction_complete", "close"]);
    for (const unity of sockets) expect(unity.errors).toEqual([]);
    const sixth = await UnityClient.connect(file.server, player.token);
    sixth.authenticate(player.token);
    expect((await sixth.probe.closed).code).toBe(4429);
    expect(sixth.probe.messages.at(-1)).toMatchObject({ type: "error", kind: "error", code: "too_many_sockets" });
    for (const unity of sockets) unity.probe.close();
  }, 60_000);

  it("answers every request kind the SDK defines with a response carrying its uid", async () => {
    const player = await unityPlayer();
    const unity = await UnityClient.connect(file.server, player.token);
    const sent = unity.start(player.token, unityConfiguration());
    const running = sent.interact;
    const requests: [string, Msg, string][] = [
      ["get_configuration", {}, "get_configuration"],
      [
        "add_audio",
        { audio: Buffer.from(unityChunks(fixture("puppy.unity.ogg"))[0]!).toString("base64"), config: { sampling_rate: 16000, mime_type: "audio/ogg" } },
        "add_audio",
      ],
      ["check_turn", {}, "check_turn"],
      ["transcribe", { language_code: "en" }, "transcribe"],
      // (An interrupt and clear_audio drop the buffered audio, so they come after transcribe here.)
      ["interrupt", { target_uid: running }, "interrupt"],
      ["clear_audio", {}, "clear_audio"],
      ["render_prompt", { context: {} }, "render_prompt"],
      // Image generation is not served: an error response.
      ["generate_image", { prompt: "an owl", provider: "bria" }, "error"],
    ];
    // Something to transcribe (the first chunk alone holds only the stream's headers).
    for (const part of unityChunks(fixture("puppy.unity.ogg"))) unity.addAudio(part);
    for (const [kind, fields, answered] of requests) {
      const uid = unity.request(kind, fields);
      const answer = await unity.probe.next((m) => m.uid === uid && m.type === "response");
      expect({ kind, answered: answer.kind }).toEqual({ kind, answered });
      if (answer.kind === "error") expect({ kind, code: answer.code }).toEqual({ kind, code: "unsupported_request" });
    }
    unity.probe.close();
  }, 30_000);

  it("voice turns: Ogg/Vorbis pages in chunks of 512 bytes or more, then an interact with no text field; the transcript, then the reply as Unity plays it, with nothing of kind error", async () => {
    const player = await unityPlayer();
    const unity = await UnityClient.connect(file.server, player.token);
    const config = unityConfiguration();
    const sent = unity.start(player.token, config);
    await unity.stream(sent.interact);
    // SetConfiguration clears the audio, then the microphone streams until Unity's own VAD hears silence.
    unity.clearAudio();
    const before = stt.transcriptions.length;
    const utterances: [Uint8Array, string, string][] = [
      [fixture("puppy.unity.ogg"), "I want to play with my puppy in the garden.", "I want to play with my puppy"],
      // After the reply it records again: a new Ogg stream (a new serial), still no end-of-stream page, no clear_audio.
      [withSerial(fixture("dragon.unity.ogg"), 0x5eed), "Can you tell me a story about a dragon?", "Can you tell me a story about a dragon"],
    ];
    for (const [ogg, sentence, heard] of utterances) {
      stt.transcript = heard;
      const parts = unityChunks(ogg);
      for (const part of parts) expect(part.length >= 512 || part === parts.at(-1)).toBe(true);
      const added = parts.map((part) => unity.addAudio(part));
      // OnVoiceCaptureSilenced: Messages.CreateInteractMessage(text: null, ...): the text field is left out.
      const uid = unity.interact(undefined, config);
      expect(unity.probe.messages.length).toBeGreaterThan(0);
      const events = await unity.stream(uid);
      for (const a of added) expect(unity.probe.messages.find((m) => m.uid === a)).toMatchObject({ type: "response", kind: "add_audio" });
      const names = events.map((e) => e.event ?? e.kind);
      expect(names.slice(0, 2)).toEqual(["interaction_started", "transcript"]);
      expect(events[1]).toMatchObject({ type: "stream", kind: "interact", text: heard });
      expect(names.slice(-4)).toEqual(["text_complete", "audio_complete", "interaction_complete", "close"]);
      for (const e of events.filter((x) => x.event === "audio")) expect(Buffer.from(e.audio, "base64").subarray(0, 2).toString("hex")).toBe("fffb");
      // The recogniser heard this utterance alone: the first was consumed by its interact.
      const got = stt.transcriptions.at(-1)!;
      expect(got.wavError).toBeNull();
      expect(envelopeMatch(await speech(sentence), got.samples!)).toBeGreaterThan(0.9);
      expect((await rememberedOf(file.server, player.pk)).at(-2)).toEqual({ role: "user", text: heard });
    }
    expect(stt.transcriptions.length).toBe(before + 2);
    expect(unity.errors).toEqual([]);
    stt.transcript = "I want to play with my puppy";
    unity.probe.close();
  }, 60_000);
});

describe("Unity SDK: a session longer than the token", () => {
  it("keeps its socket past the token's exp (default settings), and a revocation still closes it at once", async () => {
    const server = await startTestServer({ HOOT_TOKEN_TTL_SECONDS: "1", HOOT_CLOCK_TOLERANCE_SECONDS: "0" });
    try {
      const team = await createTeamFixture(server);
      const player = await unityPlayer(server, team);
      const unity = await UnityClient.connect(server, player.token);
      const config = unityConfiguration();
      const sent = unity.start(player.token, config);
      await unity.stream(sent.interact);
      const exp = JSON.parse(Buffer.from(player.token.split(".")[1]!, "base64url").toString()).exp as number;
      await Bun.sleep(Math.max(0, exp * 1000 - Date.now()) + 1500);
      // Past exp: the socket still talks (Unity never re-authenticates).
      const later = await unity.stream(unity.interact("hi", config));
      expect(later.map((e) => e.event ?? e.kind).slice(-2)).toEqual(["interaction_complete", "close"]);
      expect(unity.errors).toEqual([]);
      // The developer's own token has expired too by now: log in afresh.
      const developer = await login(server.url, { api_key: team.developerKey });
      const deleted = await api(server.url, "DELETE", `/api/players/${player.pk}`, { token: developer.access_token });
      expect(deleted.status).toBe(204);
      expect((await unity.probe.closed).code).toBe(4403);
      await eventually(() => unity.probe.messages.at(-1)?.type === "error");
      expect(unity.probe.messages.at(-1)).toMatchObject({ type: "error", kind: "error", code: "credential_revoked" });
    } finally {
      await server.close();
    }
  }, 30_000);
});

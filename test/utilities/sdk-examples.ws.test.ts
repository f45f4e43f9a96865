/**
 * The hosted engine's SDK examples for utilities and stored configurations, sent exactly as each SDK
 * serialises them (field for field, nulls and empty lists included), with what each SDK reads back:
 *
 * - ug-python-sdk: README "Session Configuration", "Using References", "Utilities" and `interact(on_input=…)`;
 *   pydantic `model_dump(mode="json", exclude_none=True)` sends `utilities: {}` and `debug: false` always,
 *   leaves out None, and an interact always carries `speakers: []` and `language_code: "en"`.
 * - ug-js-sdk: `ConversationNetwork.setConfiguration` (`prompt`, `utilities`; undefined fields vanish) and its
 *   interact; `ConversationManager` hands every message with `event: "data"` to `onDataMessage`.
 * - ug-unity-sdk: the AdvancedUtilities sample (`cats`, `finish_conversation` classify utilities, run on input),
 *   Newtonsoft with NullValueHandling.Ignore; the configuration carries `context`, `audio_output`, `on_input`,
 *   `on_output`; the interact carries `language_code`.
 *
 * A few of these messages also carry fields from the compatibility work (other providers' voice fields,
 * `speakers`, configuration-level `on_input`): they always run, so a schema that loses one of those fields fails here.
 */
import { beforeAll, describe, expect, it } from "bun:test";
import { api, createPlayer, serverForFile } from "../helpers/server.ts";
import { type Msg, WsProbe } from "../helpers/ws.ts";

const file = serverForFile();

/** Python: datetime.now(UTC) as pydantic writes it. */
const pyTime = () => new Date().toISOString().replace(/\.(\d{3})Z$/, ".$1123Z");
/** Unity: DateTime.UtcNow.ToString("yyyy-MM-ddTHH:mm:ss.ffffffZ"). */
const unityTime = pyTime;

async function connect(): Promise<WsProbe> {
  const player = await createPlayer(file.server, file.team);
  const probe = await WsProbe.open(file.server.url);
  const auth = await probe.request("authenticate", { access_token: player.token });
  expect(auth.kind).toBe("authenticate");
  return probe;
}

/** Sends `message` as the SDK wrote it and returns the answer with its uid. */
async function send(probe: WsProbe, message: Msg): Promise<Msg> {
  probe.send(message);
  return probe.next((m) => m.uid === message.uid && m.type === "response");
}

const SENTIMENT = { type: "classify", classification_question: "What is the user's sentiment?", answers: ["positive", "neutral", "negative"] };
const TOPIC = { type: "extract", extract_prompt: "Extract the main topic of discussion." };

describe("ug-python-sdk", () => {
  beforeAll(async () => {
    const token = file.team.developerToken;
    await api(file.server.url, "PUT", "/api/configs/production_config", {
      token,
      body: { config: { prompt: "You are Ollie the owl, in production.", utilities: { sentiment: SENTIMENT } } },
    });
    await api(file.server.url, "PUT", "/api/configs/my_prompt", { token, body: { config: { prompt: "You are Pip the penguin." } } });
    await api(file.server.url, "PUT", "/api/configs/base_config", {
      token,
      body: { config: { prompt: "You are Ollie the owl.", temperature: 0.5, utilities: { topic: TOPIC } } },
    });
    await api(file.server.url, "PUT", "/api/configs/voice_override", { token, body: { config: { voice_profile: { speed: 0.9 } } } });
  });

  it("set_configuration with the README's utilities (Classify and Extract, additional_context)", async () => {
    const probe = await connect();
    const answer = await send(probe, {
      kind: "set_configuration",
      client_start_time: pyTime(),
      config: {
        prompt: "You are a helpful customer service agent for Acme Corp.",
        temperature: 0.7,
        utilities: {
          sentiment: SENTIMENT,
          topic: TOPIC,
          billing: {
            type: "classify",
            classification_question: "Is the user asking about billing, technical support, or general inquiry?",
            additional_context: "Consider the conversation history.",
            answers: ["billing", "technical_support", "general"],
          },
          order: { type: "extract", extract_prompt: "Extract the user's order number if mentioned.", additional_context: "Order numbers are 6 digits." },
        },
        debug: false,
      },
      type: "request",
      uid: crypto.randomUUID(),
    });
    expect(answer).toMatchObject({ type: "response", kind: "set_configuration" });
    const run = await send(probe, {
      kind: "run",
      client_start_time: pyTime(),
      utilities: ["billing", "order", "sentiment"],
      context: {},
      bindings: { input: "I was charged twice for order 123456, I hate this" },
      type: "request",
      uid: crypto.randomUUID(),
    });
    expect(run).toMatchObject({ kind: "run", data: { billing: "billing", order: "123456", sentiment: "negative" } });
    probe.close();
  });

  it("set_configuration with the README's whole example (ElevenLabs voice, safety_policy default)", async () => {
    const probe = await connect();
    const answer = await send(probe, {
      kind: "set_configuration",
      client_start_time: pyTime(),
      config: {
        prompt: "You are a helpful customer service agent for Acme Corp.",
        temperature: 0.7,
        utilities: { sentiment: SENTIMENT, topic: TOPIC },
        safety_policy: "default",
        voice_profile: { provider: "elevenlabs", voice_id: "your-voice-id", stability: 0.5, similarity_boost: 0.75 },
        debug: false,
      },
      type: "request",
      uid: crypto.randomUUID(),
    });
    expect(answer).toMatchObject({ type: "response", kind: "set_configuration" });
    probe.close();
  });

  it("uses references: a prompt reference, a whole stored configuration, merge_configuration, render_prompt", async () => {
    const probe = await connect();
    // session.set_configuration(prompt=Reference(reference="my_prompt@v1"))
    const prompt = await send(probe, {
      kind: "set_configuration",
      client_start_time: pyTime(),
      config: { prompt: { reference: "my_prompt@v1" }, utilities: {}, debug: false },
      type: "request",
      uid: crypto.randomUUID(),
    });
    expect(prompt.kind).toBe("set_configuration");
    // session.render_prompt(context={...}) reads RenderPromptResponse.prompt
    const rendered = await send(probe, {
      kind: "render_prompt",
      client_start_time: pyTime(),
      context: { player_name: "Mia" },
      type: "request",
      uid: crypto.randomUUID(),
    });
    expect(rendered).toMatchObject({ kind: "render_prompt", prompt: "You are Pip the penguin." });
    // session.set_configuration_ref(Reference(reference="production_config"))
    const whole = await send(probe, {
      kind: "set_configuration",
      client_start_time: pyTime(),
      config: { reference: "production_config" },
      type: "request",
      uid: crypto.randomUUID(),
    });
    expect(whole.kind).toBe("set_configuration");
    // session.merge_configuration([Reference("base_config"), Reference("voice_override")]) reads MergeConfigurationResponse.utilities
    const merged = await send(probe, {
      kind: "merge_configuration",
      client_start_time: pyTime(),
      references: [{ reference: "base_config" }, { reference: "voice_override" }],
      type: "request",
      uid: crypto.randomUUID(),
    });
    expect(merged).toMatchObject({ type: "response", kind: "merge_configuration", utilities: ["sentiment", "topic"] });
    // session.get_configuration() reads GetConfigurationResponse.config
    const config = await send(probe, { kind: "get_configuration", client_start_time: pyTime(), type: "request", uid: crypto.randomUUID() });
    expect(config.config).toMatchObject({
      prompt: "You are Ollie the owl.",
      temperature: 0.5,
      voice_profile: { speed: 0.9 },
      utilities: { sentiment: SENTIMENT, topic: TOPIC },
    });
    probe.close();
  });

  it("interact(on_input=…, on_output=…, on_input_non_blocking=…) streams data events the README loop prints", async () => {
    const probe = await connect();
    await send(probe, {
      kind: "set_configuration",
      client_start_time: pyTime(),
      config: {
        prompt: "You are Ollie the owl.",
        utilities: { sentiment: SENTIMENT, topic: TOPIC, log: { type: "extract", extract_prompt: "Extract the animal" } },
        debug: false,
      },
      type: "request",
      uid: crypto.randomUUID(),
    });
    const uid = crypto.randomUUID();
    probe.send({
      kind: "interact",
      client_start_time: pyTime(),
      text: "I love cats, they are great",
      speakers: [],
      context: {},
      on_input: ["sentiment"],
      on_input_non_blocking: ["log"],
      on_output: ["topic"],
      audio_output: true,
      language_code: "en",
      type: "stream",
      uid,
    });
    const events = await probe.collect(uid);
    const data = events.filter((e) => e.event === "data").map((e) => e.data);
    expect(Object.assign({}, ...data)).toMatchObject({ sentiment: "positive", log: "cats" });
    expect(typeof Object.assign({}, ...data).topic).toBe("string");
    expect(events.at(-2)?.event).toBe("interaction_complete");
    probe.close();
  });
});

describe("ug-js-sdk", () => {
  it("setConfiguration with utilities, then an interact whose data events reach onDataMessage", async () => {
    const probe = await connect();
    // ConversationNetwork.setConfiguration: voice_profile and safety_policy are undefined and vanish in JSON.
    const configured = await send(probe, {
      type: "request",
      kind: "set_configuration",
      config: {
        prompt: "You are Ollie the owl.",
        utilities: {
          cats: { type: "classify", classification_question: "Did the user mention cats?", answers: ["yes", "no"] },
          topic: { type: "extract", extract_prompt: "the animal" },
        },
      },
      uid: crypto.randomUUID(),
      client_start_time: new Date().toISOString(),
    });
    expect(configured.kind).toBe("set_configuration");
    // ConversationNetwork.interact: the app's request plus context, audio_output, kind and type.
    const uid = crypto.randomUUID();
    probe.send({
      text: "my cat is orange",
      on_input: ["cats"],
      on_output: ["topic"],
      uid,
      client_start_time: new Date().toISOString(),
      context: {},
      audio_output: false,
      kind: "interact",
      type: "stream",
    });
    const events = await probe.collect(uid);
    // ConversationManager: `if (message.event === 'data') onDataMessage(message)`.
    const onDataMessage = events.filter((message) => message.event === "data");
    expect(onDataMessage.map((m) => Object.keys(m.data))).toEqual([["cats"], ["topic"]]);
    expect(onDataMessage[0]!.data.cats).toBe("yes");
    // on_output reads the reply: the animal the character talked about.
    expect(onDataMessage[1]!.data.topic).toMatch(/^cats?$/);
    expect(onDataMessage.every((m) => m.kind === "interact" && m.type === "stream")).toBe(true);
    probe.close();
  });
});

describe("ug-unity-sdk", () => {
  it("AdvancedUtilities sample: cats and finish_conversation on input; DataReceived holds both", async () => {
    const probe = await connect();
    const configured = await send(probe, {
      type: "request",
      uid: crypto.randomUUID(),
      kind: "set_configuration",
      client_start_time: unityTime(),
      config: {
        prompt: "Be polite, respond in 1 sentence only",
        temperature: 0.5,
        utilities: {
          cats: { type: "classify", classification_question: "Did the user mention cats in the last message?", answers: ["yes", "no"] },
          finish_conversation: {
            type: "classify",
            classification_question: "Did the user express a desire to finish the conversation? Did the user say 'bye', 'goodbye', or 'end conversation'?",
            answers: ["yes", "no"],
          },
        },
        context: {},
        audio_output: false,
        on_input: ["cats", "finish_conversation"],
        on_output: [],
        debug: false,
      },
    });
    expect(configured.kind).toBe("set_configuration");
    for (const [text, expected] of [
      ["I have two cats at home", { cats: "yes", finish_conversation: "no" }],
      ["ok bye, goodbye!", { cats: "no", finish_conversation: "yes" }],
    ] as const) {
      const uid = crypto.randomUUID();
      probe.send({
        type: "stream",
        uid,
        kind: "interact",
        client_start_time: unityTime(),
        text,
        context: {},
        on_input: ["cats", "finish_conversation"],
        on_output: [],
        audio_output: false,
        language_code: "en",
      });
      const events = await probe.collect(uid);
      // DataReceived: dataMessage.TryGetValue("cats"), TryGetValue("finish_conversation") on the same message.
      const data = events.filter((e) => e.event === "data");
      expect(data).toHaveLength(1);
      expect(data[0]!.data).toEqual(expected);
    }
    probe.close();
  });
});

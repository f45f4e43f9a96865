/**
 * Utilities over the real socket with the OpenAI-compatible provider, against a fake server on loopback that
 * checks what it is asked: structured output with the answers as an enum, the child's words redacted, the
 * reply as the subject of on_output, templates filled, and {{name}} in the reply's prompt. Failures (HTTP
 * errors, slow answers, answers outside the list, unsafe answers) become `data` error values, never a broken stream.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { askedAbout, askedQuestion, type ChatBody, type FakeOpenAi, startFakeOpenAi, type UtilityAnswer } from "../helpers/fake-openai.ts";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { type Msg, openSession, type WsProbe } from "../helpers/ws.ts";

let fake: FakeOpenAi;
/** Every chat call's body, in arrival order. */
const bodies = () => fake.chats.map((c) => c.body);
let server: TestServer;
let team: TeamFixture;
const probes: WsProbe[] = [];

/** The fake model's answers to utility calls, by what the question asks. */
function answer(body: ChatBody): UtilityAnswer {
  const question = askedQuestion(body);
  const about = askedAbout(body);
  if (question.includes("slow")) return { content: '{"answer": "yes"}', delayMs: 1500 };
  if (question.includes("broken")) return { status: 500 };
  if (question.includes("wander")) return { content: '{"answer": "perhaps"}' };
  if (question.includes("unsafe")) return { content: '{"value": "Send me a photo of you!"}' };
  if (question.includes("cats")) return { content: JSON.stringify({ answer: /cat/i.test(about) ? "yes" : "no" }) };
  if (question.includes("goodbye")) return { content: JSON.stringify({ answer: /bye/i.test(about) ? "Yes" : "No" }) };
  if (question.startsWith("Extract the topic")) return { content: JSON.stringify({ value: about.includes("cat") ? "cats" : "something" }) };
  if (question.includes("happy")) return { content: '{"answer": "happy"}' };
  return { content: '{"answer": "no"}' };
}

const CONFIG = {
  prompt: "You are Ollie the owl. Cats mentioned: {{cats}}.",
  utilities: {
    cats: { type: "classify", classification_question: "Did the user mention cats?", answers: ["yes", "no"] },
    bye: { type: "classify", classification_question: "Did the character say goodbye?", answers: ["Yes", "No"], additional_context: "Be strict." },
    topic: { type: "extract", extract_prompt: "Extract the topic of the message" },
    mood: { type: "classify", classification_question: "Is {{player}} happy or sad?", answers: ["happy", "sad"] },
    slow: { type: "classify", classification_question: "Is this slow?", answers: ["yes", "no"] },
    broken: { type: "classify", classification_question: "Is this broken?", answers: ["yes", "no"] },
    wander: { type: "classify", classification_question: "Does the model wander?", answers: ["yes", "no"] },
    unsafe: { type: "extract", extract_prompt: "Extract something unsafe" },
  },
};

beforeAll(async () => {
  fake = startFakeOpenAi({ utility: answer, reply: () => ["What a lovely", " cat you have", "! Goodbye for now."] });
  server = await startTestServer({
    HOOT_LLM_PROVIDER: "openai",
    HOOT_LLM_BASE_URL: fake.url,
    HOOT_LLM_MODEL: "reply-model",
    HOOT_UTILITY_MODEL: "utility-model",
    HOOT_UTILITY_TIMEOUT_MS: "400",
    HOOT_TTS_PROVIDER: "local",
  });
  team = await createTeamFixture(server);
});
afterAll(async () => {
  probes.forEach((p) => p.close());
  await server.close();
  await fake.stop();
});

async function session(config: Msg = CONFIG): Promise<WsProbe> {
  const player = await createPlayer(server, team);
  const probe = await openSession(server.url, player.token, config);
  probes.push(probe);
  return probe;
}

const dataOf = (events: Msg[]) => Object.assign({}, ...events.filter((e) => e.event === "data").map((e) => e.data)) as Record<string, unknown>;

describe("utilities as side calls to an OpenAI-compatible server", () => {
  it("runs all three positions, asks with structured output, and fills {{name}} in the reply's prompt", async () => {
    const probe = await session();
    const before = bodies().length;
    const { events } = await probe.interact("I love my cat", { on_input: ["cats"], on_input_non_blocking: ["topic"], on_output: ["bye"] });
    expect(events.at(-2)?.event).toBe("interaction_complete");
    expect(dataOf(events)).toEqual({ cats: "yes", topic: "cats", bye: "Yes" });
    const order = events.map((e) => (e.event === "data" ? Object.keys(e.data)[0] : e.event));
    expect(order.indexOf("cats")).toBeLessThan(order.indexOf("text"));
    expect(order.indexOf("bye")).toBeGreaterThan(order.lastIndexOf("text"));
    expect(order.indexOf("bye")).toBeLessThan(order.indexOf("text_complete"));

    const calls = bodies().slice(before);
    const utility = calls.filter((c) => !c.stream);
    expect(utility).toHaveLength(3);
    const cats = utility.find((c) => askedQuestion(c) === "Did the user mention cats?")!;
    expect(cats).toMatchObject({ model: "utility-model", temperature: 0 });
    expect(cats.response_format?.type).toBe("json_schema");
    expect(cats.response_format?.json_schema?.schema.properties.answer!.enum).toEqual(["yes", "no"]);
    expect(askedAbout(cats)).toBe("I love my cat");
    const bye = utility.find((c) => askedQuestion(c).includes("goodbye"))!;
    // on_output looks at the reply as sent, after the child's message.
    expect(askedAbout(bye)).toBe("What a lovely cat you have! Goodbye for now.");
    expect(bye.messages.at(-1)!.content).toContain('child: "I love my cat"');
    expect(bye.messages.at(-1)!.content).toContain("Additional context: Be strict.");
    const topic = utility.find((c) => askedQuestion(c).startsWith("Extract the topic"))!;
    expect(topic.response_format?.json_schema?.schema.properties.value!.type).toBe("string");
    // The reply's own request: the on_input answer fills {{cats}} in the prompt.
    const reply = calls.find((c) => c.stream)!;
    expect(reply.model).toBe("reply-model");
    expect(reply.messages[0]!.content).toContain("Cats mentioned: yes.");
    // The on_input utility was asked before the reply was.
    expect(calls.indexOf(cats)).toBeLessThan(calls.indexOf(reply));
  });

  it("fills the question's template from the context", async () => {
    const probe = await session();
    const before = bodies().length;
    const { events } = await probe.interact("hello", { context: { player: "Mia" }, on_input: ["mood"] });
    expect(dataOf(events)).toEqual({ mood: "happy" });
    expect(askedQuestion(fake.utilityCalls().find((c) => bodies().indexOf(c) >= before)!)).toBe("Is Mia happy or sad?");
  });

  it("shows utilities only redacted child's words", async () => {
    const probe = await session();
    const before = bodies().length;
    await probe.interact("my email is sam.jones@example.com and I love cats", { on_input: ["cats"], on_output: ["bye"] });
    const asked = bodies()
      .slice(before)
      .filter((c) => !c.stream)
      .map((c) => JSON.stringify(c.messages));
    expect(asked.length).toBe(2);
    for (const text of asked) {
      expect(text).not.toContain("sam.jones@example.com");
      expect(text).toContain("[email]");
    }
  });

  it("turns failures into data error values and still completes the interaction", async () => {
    const probe = await session();
    const { events } = await probe.interact("I love my cat", { on_input: ["broken", "cats"], on_input_non_blocking: ["wander"], on_output: ["slow"] });
    expect(events.at(-2)?.event).toBe("interaction_complete");
    const data = dataOf(events);
    expect(data.cats).toBe("yes");
    expect(data.broken).toEqual({ error: "the utility model server answered HTTP 500", code: "utility_failed" });
    expect(data.wander).toEqual({ error: "the model's answer was not one of the answers", code: "utility_failed" });
    expect(data.slow).toEqual({ error: "the utility took longer than 400 ms", code: "utility_timeout" });
    expect(JSON.stringify(events)).not.toContain("sk-secret");
  });

  it("withholds an answer that fails the output checks, with a safety_policy event and no text", async () => {
    const probe = await session();
    const { events } = await probe.interact("hello there", { on_input: ["unsafe"] });
    expect(dataOf(events)).toEqual({ unsafe: { error: "the answer was withheld by the safety policy", code: "utility_blocked" } });
    const notice = events.find((e) => e.event === "safety_policy");
    expect(notice).toMatchObject({ category: "stranger_danger" });
    expect(JSON.stringify(events)).not.toContain("photo of you");
    expect(events.at(-2)?.event).toBe("interaction_complete");
  });

  it("answers run with the results of side calls on the bound input", async () => {
    const probe = await session();
    const res = await probe.request("run", { utilities: ["cats", "topic", "broken"], context: { player: "Mia" }, bindings: { input: "cats are great" } });
    expect(res).toMatchObject({ kind: "run", data: { cats: "yes", topic: "cats", broken: { code: "utility_failed" } } });
  });
});

describe("run requests at once", () => {
  it("refuses a fifth run while four are working, and answers the four", async () => {
    const probe = await session();
    const uids = Array.from({ length: 5 }, () => crypto.randomUUID());
    for (const uid of uids) probe.send({ type: "request", kind: "run", uid, utilities: ["slow"], bindings: { input: "hi" } });
    const byUid = new Map<string, Msg>();
    while (byUid.size < uids.length) {
      const m = await probe.next((x) => uids.includes(x.uid));
      byUid.set(m.uid, m);
    }
    const answers = uids.map((uid) => byUid.get(uid)!);
    expect(answers.map((a) => a.kind)).toEqual(["run", "run", "run", "run", "error"]);
    expect(answers[4]).toMatchObject({ code: "too_many_requests" });
    expect(answers[0]!.data).toEqual({ slow: { error: "the utility took longer than 400 ms", code: "utility_timeout" } });
    // Once they have answered, runs are accepted again.
    expect((await probe.request("run", { utilities: ["cats"], bindings: { input: "a cat" } })).data).toEqual({ cats: "yes" });
  });
});

describe("a server without structured output", () => {
  let plain: FakeOpenAi;
  let plainServer: TestServer;
  beforeAll(async () => {
    plain = startFakeOpenAi({
      utility: (body) => (body.response_format ? { status: 400 } : { content: askedAbout(body).includes("cat") ? "Yes." : "no" }),
    });
    plainServer = await startTestServer({ HOOT_LLM_PROVIDER: "openai", HOOT_LLM_BASE_URL: plain.url, HOOT_TTS_PROVIDER: "local" });
  });
  afterAll(async () => {
    await plainServer.close();
    await plain.stop();
  });

  it("is asked again without response_format and its plain answer is matched to the developer's spelling", async () => {
    const t = await createTeamFixture(plainServer);
    const player = await createPlayer(plainServer, t);
    const probe = await openSession(plainServer.url, player.token, { prompt: "x", utilities: { cats: CONFIG.utilities.cats } });
    probes.push(probe);
    const first = await probe.request("run", { utilities: ["cats"], bindings: { input: "my cat" } });
    expect(first.data).toEqual({ cats: "yes" });
    const second = await probe.request("run", { utilities: ["cats"], bindings: { input: "my dog" } });
    expect(second.data).toEqual({ cats: "no" });
    // Once refused, structured output is not asked for again: 400, retry, then one plain call.
    expect(plain.utilityCalls().map((c) => Boolean(c.response_format))).toEqual([true, false, false]);
  });
});

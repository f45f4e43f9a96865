/**
 * Utilities over the real socket with the local engine (the deterministic rules): the three positions and
 * their order on the wire, {{name}} in the prompt, render_prompt, run, unknown names, and safety.
 */
import { afterAll, describe, expect, it } from "bun:test";
import { rawSql } from "../helpers/database.ts";
import { createPlayer, serverForFile } from "../helpers/server.ts";
import { type Msg, openSession, type WsProbe } from "../helpers/ws.ts";

const file = serverForFile();
const probes: WsProbe[] = [];
afterAll(() => probes.forEach((p) => p.close()));

const CONFIG = {
  prompt: "You are Ollie the owl. Cats mentioned: {{cats}}.",
  utilities: {
    cats: { type: "classify", classification_question: "Did the user mention cats in the last message?", answers: ["yes", "no"] },
    finish_conversation: {
      type: "classify",
      classification_question: "Did the user express a desire to finish the conversation? Did the user say 'bye', 'goodbye', or 'end conversation'?",
      answers: ["yes", "no"],
    },
    mood: { type: "classify", classification_question: "How does {{player}} feel?", answers: ["positive", "neutral", "negative"] },
    pet: { type: "extract", extract_prompt: "Extract the animal the child talks about." },
    age: { type: "extract", extract_prompt: "Extract the child's age", additional_context: "A number." },
    off: null,
  },
};

async function session(config: Msg = CONFIG): Promise<WsProbe> {
  const player = await createPlayer(file.server, file.team);
  const probe = await openSession(file.server.url, player.token, config);
  probes.push(probe);
  return probe;
}

const names = (events: Msg[]) => events.map((e) => (e.event === "data" ? `data:${Object.keys(e.data).join(",")}` : (e.event ?? e.kind)));

describe("utilities in the three positions (local engine)", () => {
  it("sends on_input results before any text, non-blocking ones before text_complete, on_output ones after the last text", async () => {
    const probe = await session();
    const { events } = await probe.interact("I love my cat, he is so fluffy", {
      on_input: ["cats", "mood"],
      on_input_non_blocking: ["pet"],
      on_output: ["finish_conversation"],
    });
    const order = names(events);
    expect(order[0]).toBe("interaction_started");
    expect(order[1]).toBe("data:cats,mood");
    const firstText = order.indexOf("text");
    const complete = order.indexOf("text_complete");
    expect(firstText).toBeGreaterThan(1);
    expect(order.indexOf("data:pet")).toBeGreaterThan(1);
    expect(order.indexOf("data:pet")).toBeLessThan(complete);
    expect(order.lastIndexOf("text")).toBeLessThan(order.indexOf("data:finish_conversation"));
    expect(order.indexOf("data:finish_conversation")).toBe(complete - 1);
    expect(order.slice(-2)).toEqual(["interaction_complete", "close"]);
    const data = Object.assign({}, ...events.filter((e) => e.event === "data").map((e) => e.data));
    expect(data).toEqual({ cats: "yes", mood: "positive", pet: "cat", finish_conversation: "no" });
  });

  it("gives the answers the local rules promise for yes/no, small answer sets and extraction", async () => {
    const probe = await session();
    const bye = await probe.interact("ok goodbye now", { on_input: ["finish_conversation", "cats", "mood", "age"] });
    expect(bye.events.find((e) => e.event === "data")?.data).toEqual({ finish_conversation: "yes", cats: "no", mood: "neutral", age: "" });
    const sad = await probe.interact("I don't like school, I am eight years old", { on_input: ["mood", "age"] });
    expect(sad.events.find((e) => e.event === "data")?.data).toEqual({ mood: "negative", age: "8" });
  });

  it("answers render_prompt with the prompt filled from the context (a missing name is left empty)", async () => {
    const probe = await session();
    const rendered = await probe.request("render_prompt", { context: { cats: "maybe" } });
    expect(rendered).toMatchObject({ kind: "render_prompt", prompt: "You are Ollie the owl. Cats mentioned: maybe." });
    const empty = await probe.request("render_prompt", {});
    expect(empty.prompt).toBe("You are Ollie the owl. Cats mentioned: .");
  });

  it("refuses an interact that names an unknown or null utility, with the field, as a stream", async () => {
    const probe = await session();
    for (const [fields, field] of [
      [{ on_input: ["cats", "dogs"] }, "on_input[1]"],
      [{ on_output: ["off"] }, "on_output[0]"],
      [{ on_input_non_blocking: ["constructor"] }, "on_input_non_blocking[0]"],
    ] as const) {
      const { events } = await probe.interact("hi", fields);
      expect(events.map((e) => e.kind)).toEqual(["error", "close"]);
      expect(events[0]).toMatchObject({ type: "stream", code: "unknown_utility" });
      expect(events[0]!.error).toContain(`field "${field}"`);
    }
    // The session is still usable.
    const ok = await probe.interact("hi", { on_input: ["cats"] });
    expect(names(ok.events)).toContain("interaction_complete");
  });

  it("runs utilities without a reply: on bindings, else on the last message; nothing is stored", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token, CONFIG);
    probes.push(probe);
    const stored = async () =>
      (await rawSql(file.server.deps.database, "SELECT CAST(COUNT(*) AS INTEGER) AS n FROM conversation_messages WHERE player_id = ?", player.pk))[0]!.n;
    const bound = await probe.request("run", { utilities: ["cats", "pet"], context: {}, bindings: { input: "my two cats are called Tom and Tim" } });
    expect(bound).toMatchObject({ type: "response", kind: "run", data: { cats: "yes", pet: "cats" } });
    expect(await stored()).toBe(0);
    await probe.interact("I have a dog");
    expect(await stored()).toBe(2);
    const last = await probe.request("run", { utilities: ["pet"] });
    // The last message is the character's reply; with output bound, the utility reads that instead.
    expect(typeof last.data.pet).toBe("string");
    const output = await probe.request("run", { utilities: ["finish_conversation"], bindings: { output: "Goodbye, see you soon!" } });
    expect(output.data).toEqual({ finish_conversation: "yes" });
    const none = await probe.request("run", { utilities: [], context: {}, bindings: {} });
    expect(none).toMatchObject({ kind: "run", data: {} });
    const unknown = await probe.request("run", { utilities: ["nope"] });
    expect(unknown).toMatchObject({ kind: "error", code: "unknown_utility" });
    expect(unknown.error).toContain('field "utilities[0]"');
    expect(await stored()).toBe(2);
  });

  it("fills templates of utilities from the context", async () => {
    const probe = await session();
    const res = await probe.request("run", { utilities: ["mood"], context: { player: "Mia" }, bindings: { input: "yay this is awesome" } });
    expect(res.data).toEqual({ mood: "positive" });
  });

  it("refuses render_prompt and run before a configuration", async () => {
    const player = await createPlayer(file.server, file.team);
    const { WsProbe } = await import("../helpers/ws.ts");
    const probe = await WsProbe.open(file.server.url);
    probes.push(probe);
    await probe.request("authenticate", { access_token: player.token });
    expect(await probe.request("render_prompt", {})).toMatchObject({ kind: "error", code: "not_configured" });
    expect(await probe.request("run", { utilities: ["x"] })).toMatchObject({ kind: "error", code: "not_configured" });
  });

  it("answers merge_configuration with the utilities configured now; null removes one", async () => {
    const probe = await session();
    const merged = await probe.request("merge_configuration", {
      config: { utilities: { cats: null, extra: { type: "extract", extract_prompt: "the colour" } } },
    });
    expect(merged).toMatchObject({ kind: "merge_configuration" });
    expect(merged.utilities.sort()).toEqual(["age", "extra", "finish_conversation", "mood", "pet"]);
    const replaced = await probe.request("merge_configuration", {
      config: { utilities: { extra: { type: "classify", classification_question: "Is it red?", answers: ["yes", "no"] } } },
    });
    expect(replaced.kind).toBe("merge_configuration");
    const config = (await probe.request("get_configuration")).config;
    // A utility given again replaces the old one: no extract_prompt left over from the extract.
    expect(config.utilities.extra).toEqual({ type: "classify", classification_question: "Is it red?", answers: ["yes", "no"] });
  });
});

describe("user-supplied utility names", () => {
  it('treats "__proto__" and "constructor" as ordinary names end to end', async () => {
    const probe = await session({ prompt: "x" });
    const uid = crypto.randomUUID();
    // Sent as raw JSON: a JavaScript object literal would turn "__proto__" into a prototype, not a key.
    probe.send(
      `{"type":"request","kind":"set_configuration","uid":"${uid}","config":{"prompt":"x","utilities":{"__proto__":{"type":"extract","extract_prompt":"the animal"},"constructor":{"type":"classify","classification_question":"Did the user mention cats?","answers":["yes","no"]}}}}`,
    );
    expect((await probe.next((m) => m.uid === uid)).kind).toBe("set_configuration");
    const { events } = await probe.interact("my cat sleeps", { on_input: ["__proto__", "constructor"] });
    const data = events.find((e) => e.event === "data")!.data;
    expect(Object.hasOwn(data, "__proto__")).toBe(true);
    expect(data).toEqual(JSON.parse('{"__proto__":"cat","constructor":"yes"}'));
    const config = (await probe.request("get_configuration")).config;
    expect(Object.keys(config.utilities)).toEqual(["__proto__", "constructor"]);
  });
});

describe("bad utility definitions fail set_configuration with the field", () => {
  const cases: [string, unknown, string][] = [
    ["an unknown type", { type: "summarise" }, 'field "config.utilities.u.type" must be "classify" or "extract"'],
    ["no question", { type: "classify", answers: ["a"] }, 'field "config.utilities.u.classification_question" is required'],
    ["no answers", { type: "classify", classification_question: "q?", answers: [] }, 'field "config.utilities.u.answers"'],
    ["an answer twice", { type: "classify", classification_question: "q?", answers: ["a", "a"] }, '"a" is listed twice'],
    ["an unknown field", { type: "extract", extract_prompt: "x", answers: ["a"] }, 'unknown field "config.utilities.u.answers"'],
    ["a number", 7, 'field "config.utilities.u" must be a utility'],
  ];
  for (const [what, utility, sentence] of cases) {
    it(`refuses ${what}`, async () => {
      const probe = await session({ prompt: "x" });
      const res = await probe.request("set_configuration", { config: { prompt: "x", utilities: { u: utility } } });
      expect(res).toMatchObject({ kind: "error", code: "invalid_configuration" });
      expect(res.error).toContain(sentence);
    });
  }
});

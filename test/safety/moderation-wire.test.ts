/**
 * The optional moderation model behind the rules, through the real server (HOOT_MODERATION_PROVIDER=openai
 * against a fake /v1/moderations on loopback): it only ever sees redacted text, it can hold what the rules
 * pass, and when it is slow or failing the text is held (a safe line), never passed.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { BUILTIN_POLICIES } from "../../src/engine/safety/checks.ts";
import { type FakeOpenAi, fakeProviderEnv, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { type Msg, openSession } from "../helpers/ws.ts";

let fake: FakeOpenAi;
let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  fake = startFakeOpenAi();
  server = await startTestServer(
    fakeProviderEnv(fake, {
      HOOT_MODERATION_PROVIDER: "openai",
      HOOT_MODERATION_BASE_URL: fake.url,
      HOOT_MODERATION_API_KEY: "sk-fake",
      HOOT_MODERATION_TIMEOUT_MS: "400",
    }),
  );
  team = await createTeamFixture(server);
});
afterAll(async () => {
  await server.close();
  await fake.stop();
});

const FALLBACK = BUILTIN_POLICIES.children_strict!.fallbackLines;
const notices = (events: Msg[]) => events.filter((e) => e.event === "safety_policy").map((e) => ({ category: e.category, action: e.action }));
const shown = (events: Msg[]) =>
  events
    .filter((e) => e.event === "text")
    .map((e) => e.text as string)
    .join("");
const reply = (events: Msg[]) => events.find((e) => e.event === "text_complete")?.text as string;

async function talk(text: string) {
  const player = await createPlayer(server, team);
  const probe = await openSession(server.url, player.token, { prompt: "You are Ollie the owl." });
  try {
    return (await probe.interact(text, {}, 20_000)).events;
  } finally {
    probe.close();
  }
}

describe("a moderation model behind the rules", () => {
  it("sees only redacted text, for the input and for each reply sentence", async () => {
    fake.moderate({ kind: "safe" }, { kind: "safe" });
    fake.plan(["What", " a lovely", " name!"]);
    const asked = fake.moderated.length;
    const events = await talk("hi, my email is tom.b@example.org");
    expect(reply(events)).toBe("What a lovely name!");
    const judged = fake.moderated.slice(asked);
    expect(judged).toEqual(["hi, my email is [email]", "What a lovely name!"]);
  });

  it("holds a reply sentence it flags that the rules passed, and the reply carries on", async () => {
    fake.moderate({ kind: "safe" }, { kind: "safe" }, { kind: "flag", categories: ["violence"] }, { kind: "safe" });
    fake.plan(["Hello", " there!", " The knight", " hit the troll", " very hard.", " Bye", " now."]);
    const events = await talk("tell me a story");
    expect(shown(events)).toBe("Hello there! Bye now.");
    expect(reply(events)).toBe("Hello there! Bye now.");
    expect(notices(events)).toEqual([{ category: "violence", action: "block" }]);
  });

  it("fails safe when it is slower than HOOT_MODERATION_TIMEOUT_MS on the input: the fallback line, no model call", async () => {
    fake.moderate({ kind: "slow", ms: 3000 });
    const chats = fake.chats.length;
    const events = await talk("what is your favourite colour?");
    expect(fake.chats.length).toBe(chats);
    expect(notices(events)).toEqual([{ category: "moderation", action: "redirect" }]);
    expect(FALLBACK).toContain(reply(events));
    expect(events.at(-2)?.event).toBe("interaction_complete");
  });

  it("fails safe when it answers an error on the input", async () => {
    fake.moderate({ kind: "status", status: 500 });
    const chats = fake.chats.length;
    const events = await talk("what is your favourite colour?");
    expect(fake.chats.length).toBe(chats);
    expect(notices(events)).toEqual([{ category: "moderation", action: "redirect" }]);
    expect(FALLBACK).toContain(reply(events));
  });

  it("fails safe on a reply sentence: it is replaced by the fallback line and the reply ends", async () => {
    fake.moderate({ kind: "safe" }, { kind: "slow", ms: 3000 });
    fake.plan(["Blue", " is my", " favourite!", " What", " is yours?"]);
    const events = await talk("what is your favourite colour?");
    expect(notices(events)).toEqual([{ category: "moderation", action: "block" }]);
    expect(shown(events)).not.toContain("Blue");
    expect(shown(events)).not.toContain("yours");
    expect(FALLBACK).toContain(reply(events).trim());
    const logs = server.logs.filter((l) => l.includes("moderation_failed"));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join("\n")).not.toContain("favourite");
  });
});

/**
 * Through the real server with an OpenAI-compatible model on loopback: a long `conversation_history` (as the
 * Unity SDK's dialogues send it) reaches the model trimmed to HOOT_PROMPT_BUDGET_CHARS, newest lines kept; and
 * the configured model is the one get_available_models lists and set_service_profile picks.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { type FakeOpenAi, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { createPlayer, createTeamFixture, startTestServer, type TestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = startFakeOpenAi({ reply: ["Hoo", " hoo!"] });
  server = await startTestServer({
    HOOT_LLM_PROVIDER: "openai",
    HOOT_LLM_BASE_URL: fake.url,
    HOOT_LLM_API_KEY: "sk-test-key",
    HOOT_LLM_MODEL: "fake-model",
    HOOT_PROMPT_BUDGET_CHARS: "8000",
  });
});
afterAll(async () => {
  await server.close();
  await fake.stop();
});

describe("the model's budget and the model list, with an OpenAI-compatible provider", () => {
  it("trims a long conversation_history to the budget, keeping its newest lines", async () => {
    const team = await createTeamFixture(server);
    const player = await createPlayer(server, team);
    const lines = Array.from({ length: 400 }, (_, i) => `player_turn_${i % 3}: line ${i} of a long dialogue about the forest`);
    const history = lines.join("\n");
    expect(history.length).toBeGreaterThan(20_000);
    const probe = await openSession(server.url, player.token, { prompt: "You are Ollie the owl.", context: { conversation_history: history } });
    const { events } = await probe.interact("What did Bella say?", { context: { player_name: "Mia" } });
    expect(events.at(-1)!.kind).toBe("close");
    expect(events.map((e) => e.event)).toContain("interaction_complete");
    const messages = fake.chats.at(-1)!.body.messages!;
    expect(messages.reduce((n, m) => n + m.content.length, 0)).toBeLessThanOrEqual(8000);
    const system = messages[0]!.content;
    expect(system).toContain(lines.at(-1)!);
    expect(system).not.toContain(`${lines[0]!} `);
    expect(system).toContain("player_name: Mia");
    expect(messages.at(-1)).toEqual({ role: "user", content: "What did Bella say?" });
    probe.close();
  });

  it("lists the configured model and lets a session pick it by name", async () => {
    const team = await createTeamFixture(server);
    const player = await createPlayer(server, team);
    const probe = await openSession(server.url, player.token);
    const listed = await probe.request("get_available_models");
    expect(Object.keys(listed.models)).toEqual(["fake-model"]);
    expect((await probe.request("set_service_profile", { service_profile: "fake-model" })).kind).toBe("set_service_profile");
    expect(await probe.request("set_service_profile", { service_profile: "local" })).toMatchObject({ kind: "error", code: "unknown_service_profile" });
    probe.close();
  });
});

/**
 * The lines a new user types first never trigger a policy: the console's own example and default prompt, every
 * example message in the README and docs/, and ordinary first lines a developer tries in the playground. Each goes
 * through the real server (fake model on loopback, real SQLite, a real socket) under the default policy, and the
 * model's reply to each is an ordinary sentence that must reach the child too.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeOpenAi, fakeProviderEnv, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { type Msg, openSession } from "../helpers/ws.ts";

const ROOT = join(import.meta.dir, "../..");
const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");

/** Example messages quoted in the README, docs/ and the console's playground. */
function documentedExamples(): string[] {
  const sources = [
    read("README.md"),
    ...readdirSync(join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => read(`docs/${f}`)),
    read("src/console/web/pages/playground.tsx"),
  ];
  const found = new Set<string>();
  for (const text of sources) {
    for (const m of text.matchAll(/\binteract\("([^"]{2,200})"/g)) found.add(m[1] as string);
    for (const m of text.matchAll(/"text":\s?"([^"]{2,200})"/g)) found.add(m[1] as string);
    for (const m of text.matchAll(/placeholder="([^"]{2,200})"/g)) if (/\s/.test(m[1] as string)) found.add(m[1] as string);
  }
  return [...found];
}

// Lines a developer types first in the playground (the first two were held back before the blind-set rework).
const FIRST_LINES = [
  "Tell me a short story about an owl",
  "I fell over in the playground and grazed my knee",
  "Hi! What's your name?",
  "Can you help me with my homework?",
  "What do owls eat?",
  "Why is the sky blue?",
  "I lost my first tooth today!",
  "My grandma is coming to stay this weekend",
  "Can we play a game?",
  "I'm a bit sad today",
];

let fake: FakeOpenAi;
let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  fake = startFakeOpenAi();
  server = await startTestServer(fakeProviderEnv(fake));
  team = await createTeamFixture(server);
});
afterAll(async () => {
  await server.close();
  await fake.stop();
});

describe("example lines never trigger a policy", () => {
  it("finds the documented examples (the console's placeholder among them)", () => {
    expect(documentedExamples()).toContain("Tell me a story about a dragon");
  });

  it("answers every documented example and first line with the model's reply and no safety event", async () => {
    const player = await createPlayer(server, team);
    const consolePrompt = /const DEFAULT_PROMPT =\s*"([^"]+)"/.exec(read("src/console/index.ts"))?.[1];
    expect(consolePrompt).toBeString();
    const probe = await openSession(server.url, player.token, { prompt: consolePrompt });
    const held: string[] = [];
    for (const line of [...documentedExamples(), ...FIRST_LINES]) {
      fake.plan(["What a lovely thing to say! ", "Shall we read a story about a friendly owl together?"]);
      const { events } = await probe.interact(line, {}, 20_000);
      const notices = events.filter((e: Msg) => e.event === "safety_policy");
      const said = events
        .filter((e: Msg) => e.event === "text")
        .map((e: Msg) => e.text)
        .join("");
      if (notices.length > 0 || !said.includes("friendly owl")) held.push(`${line} -> ${JSON.stringify(notices.map((n: Msg) => `${n.category}/${n.action}`))}`);
    }
    probe.close();
    expect(held).toEqual([]);
  }, 120_000);
});

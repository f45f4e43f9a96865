import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadHistory, purgeExpired } from "../../src/conversations/service.ts";
import { rawSql } from "../helpers/database.ts";
import { type FakeOpenAi, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { createPlayer, createTeamFixture, login, startTestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

let fake: FakeOpenAi;
let dir: string;

beforeAll(() => {
  fake = startFakeOpenAi({ reply: ["Hoo", " hoo!", " Nice", " to", " meet", " you."] });
  dir = mkdtempSync(join(tmpdir(), "hoot-memory-"));
});
afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

const openaiEnv = () => ({ HOOT_LLM_PROVIDER: "openai", HOOT_LLM_BASE_URL: fake.url, HOOT_LLM_API_KEY: "sk-test-key", HOOT_LLM_MODEL: "fake-model" });
const lastMessages = () => fake.chats.at(-1)!.body.messages!;

describe("player memory through the socket (OpenAI-compatible provider on loopback)", () => {
  it("gives the model the prompt with context filled in, the temperature, and the history across sockets and a restart", async () => {
    let server = await startTestServer(openaiEnv(), { dir });
    const team = await createTeamFixture(server);
    const player = await createPlayer(server, team);
    const config = { prompt: "You are Ollie the owl. The child is called {{player_name}}.", temperature: 0.3 };

    const first = await openSession(server.url, player.token, config);
    const turn = await first.interact("My favourite animal is a fox", { context: { player_name: "Mia", level: 3 } });
    expect(
      turn.events
        .filter((e) => e.event === "text")
        .map((e) => e.text)
        .join(""),
    ).toBe("Hoo hoo! Nice to meet you.");
    const request = fake.chats.at(-1)!;
    expect(request.body.temperature).toBe(0.3);
    expect(request.body.model).toBe("fake-model");
    expect(request.authorization).toBe("Bearer sk-test-key");
    const system = request.body
      .messages!.filter((m) => m.role === "system")
      .map((m) => m.content)
      .join("\n");
    expect(system).toContain("The child is called Mia.");
    expect(system).not.toContain("{{player_name}}");
    expect(system).toContain("level");
    expect(request.body.messages!.at(-1)).toEqual({ role: "user", content: "My favourite animal is a fox" });
    first.close();

    // A second socket remembers the first conversation.
    const second = await openSession(server.url, player.token, config);
    await second.interact("What is my favourite animal?", { context: { player_name: "Mia" } });
    const remembered = lastMessages().filter((m) => m.role !== "system");
    expect(remembered.slice(0, 2)).toEqual([
      { role: "user", content: "My favourite animal is a fox" },
      { role: "assistant", content: "Hoo hoo! Nice to meet you." },
    ]);
    second.close();

    // And so does a restarted server.
    await server.close();
    server = await startTestServer(openaiEnv(), { dir });
    const token = (await login(server.url, { api_key: team.publicKey, federated_id: player.federatedId })).access_token;
    const third = await openSession(server.url, token, config);
    await third.interact(".", { context: { player_name: "Mia" } });
    const afterRestart = lastMessages()
      .filter((m) => m.role !== "system")
      .map((m) => m.content);
    expect(afterRestart).toContain("My favourite animal is a fox");
    expect(afterRestart).toContain("What is my favourite animal?");
    // "." adds no user words to the history.
    const rows = await rawSql(server.deps.database, "SELECT role, text FROM conversation_messages WHERE player_id = ? ORDER BY id", player.pk);
    expect(rows.map((r) => r.role)).toEqual(["user", "assistant", "user", "assistant", "assistant"]);
    third.close();
    await server.close();
  });

  it("keeps only what was sent when interrupted, cut at at_character", async () => {
    // Two sentences: under the default policy text leaves a sentence at a time, once it has passed the output checks.
    const slow = startFakeOpenAi({
      reply: {
        kind: "stream",
        tokens: ["Once", " upon", " a", " time.", " There", " was", " a", " dragon", " who", " loved", " pancakes."],
        delayMs: 60,
      },
    });
    const server = await startTestServer({ ...openaiEnv(), HOOT_LLM_BASE_URL: slow.url });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const probe = await openSession(server.url, player.token);
      const uid = crypto.randomUUID();
      probe.send({ type: "stream", kind: "interact", uid, text: "story please", context: {}, audio_output: false });
      await probe.next((m) => m.uid === uid && m.event === "text" && m.text.includes("upon"));
      const answer = await probe.request("interrupt", { target_uid: uid, at_character: 4 });
      expect(answer).toMatchObject({ kind: "interrupt", interrupted: true, target_uid: uid });
      const events = probe.messages.filter((m) => m.uid === uid);
      expect(events.at(-1)!.kind).toBe("close");
      expect(events.some((e) => e.event === "interaction_complete")).toBe(false);
      await Bun.sleep(50);
      // The words are stored encrypted: read them back through the conversation service.
      const rows = await loadHistory(server.deps, player.pk, 10_000);
      expect(rows).toEqual([
        { role: "user", text: "story please" },
        { role: "assistant", text: "Once" },
      ]);
      probe.close();
    } finally {
      await server.close();
      await slow.stop();
    }
  });

  it("turns a provider failure into interaction_error and the close, and the socket stays usable", async () => {
    const broken = startFakeOpenAi({ reply: { kind: "status", status: 500 } });
    const server = await startTestServer({ ...openaiEnv(), HOOT_LLM_BASE_URL: broken.url });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const probe = await openSession(server.url, player.token);
      const { events } = await probe.interact("hello");
      const kinds = events.map((e) => e.event ?? e.kind);
      expect(kinds).toContain("interaction_error");
      expect(kinds.at(-1)).toBe("close");
      expect(kinds).not.toContain("interaction_complete");
      const error = events.find((e) => e.event === "interaction_error")!;
      expect(JSON.stringify(error)).not.toContain("sk-");
      // One retry when nothing had been sent yet.
      expect(broken.chats).toHaveLength(2);
      expect((await probe.request("ping")).kind).toBe("ping");
      probe.close();
    } finally {
      await server.close();
      await broken.stop();
    }
  });
});

describe("retention", () => {
  it("purges conversation data older than HOOT_RETENTION_DAYS and keeps newer", async () => {
    const server = await startTestServer({ HOOT_RETENTION_DAYS: "30" });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const probe = await openSession(server.url, player.token);
      await probe.interact("hello");
      probe.close();
      const day = 86_400_000;
      await rawSql(
        server.deps.database,
        "INSERT INTO conversation_messages (player_id, role, text, created_at) VALUES (?, 'user', 'old words', ?)",
        player.pk,
        Date.now() - 31 * day,
      );
      const count = async () =>
        (await rawSql(server.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM conversation_messages WHERE player_id = ?", player.pk))[0]!.n;
      expect(await count()).toBe(3);
      expect(await purgeExpired(server.deps, 30)).toBe(1);
      expect(await count()).toBe(2);
      expect(await purgeExpired(server.deps, 30, Date.now() + 31 * day)).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("runs the purge periodically while serving", async () => {
    const server = await startTestServer({ HOOT_RETENTION_SWEEP_MS: "100" });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      await rawSql(
        server.deps.database,
        "INSERT INTO conversation_messages (player_id, role, text, created_at) VALUES (?, 'user', 'old', ?)",
        player.pk,
        Date.now() - 40 * 86_400_000,
      );
      const count = async () => (await rawSql(server.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM conversation_messages"))[0]!.n;
      for (let i = 0; i < 50 && (await count()) > 0; i++) await Bun.sleep(50);
      expect(await count()).toBe(0);
    } finally {
      await server.close();
    }
  });
});

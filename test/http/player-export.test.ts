/**
 * GET /api/players/{pk}/data through the real server, for a heavily used player: one JSON document, streamed as the
 * history is read a batch at a time (src/players/privacy.ts), holding every row in order; its audit row written
 * before the words leave; and its `memory` exactly what the model is given at the next turn.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { EXPORT_BATCH } from "../../src/players/privacy.ts";
import { rawSql } from "../helpers/database.ts";
import { type FakeOpenAi, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { api, createPlayer, createTeamFixture, serverForFile, startTestServer, type TestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

const file = serverForFile();

type Role = "user" | "assistant";
const roleOf = (i: number): Role => (i % 2 === 0 ? "user" : "assistant");

/** Stores `count` sealed messages for the player through the server's own store and cipher, as turns would. */
async function storeMessages(server: TestServer, playerPk: number, count: number, word: (i: number) => string): Promise<void> {
  for (let start = 0; start < count; start += 250) {
    const messages = [];
    for (let i = start; i < Math.min(count, start + 250); i++)
      messages.push({ role: roleOf(i), sealed: server.deps.textCipher.seal(word(i), playerPk, roleOf(i)) });
    await server.deps.store.conversations.append(playerPk, messages);
  }
}

describe("the export of a heavily used player", () => {
  it("is one JSON document holding every row in order, across many batches, and incidents past one batch", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    const count = EXPORT_BATCH * 5 + 1;
    const word = (i: number) => `message number ${i} of the tortoise's long story`;
    await storeMessages(server, player.pk, count, word);
    for (let i = 0; i < EXPORT_BATCH + 3; i++) {
      await server.deps.store.incidents.insert({
        teamId: team.teamId,
        playerId: player.pk,
        sessionId: `s-${i}`,
        category: "self_harm",
        action: "escalate",
        direction: "input",
        policy: "default",
      });
    }

    const res = await fetch(`${server.url}/api/players/${player.pk}/data`, {
      headers: { authorization: `Bearer ${team.developerToken}`, "x-request-id": "big-export-1" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-request-id")).toBe("big-export-1");
    const doc = JSON.parse(await res.text());
    expect(Object.keys(doc)).toEqual(["exported_at", "player", "consent", "history", "memory", "incidents"]);
    expect(doc.player).toEqual({ pk: player.pk, external_id: player.externalId, created_at: expect.any(String) });
    expect(doc.consent).toEqual({ consent: "none", updated_at: null });
    expect(doc.history).toHaveLength(count);
    expect(doc.history.map((m: { role: Role; text: string }) => [m.role, m.text])).toEqual(Array.from({ length: count }, (_, i) => [roleOf(i), word(i)]));
    expect(Number.isNaN(Date.parse(doc.history[count - 1].at))).toBe(false);
    expect(doc.incidents).toHaveLength(EXPORT_BATCH + 3);
    expect(doc.incidents.map((i: { player_pk: number }) => i.player_pk)).toEqual(Array(EXPORT_BATCH + 3).fill(player.pk));
    // Newest first, each once.
    const pks = doc.incidents.map((i: { pk: number }) => i.pk);
    expect(pks).toEqual([...pks].sort((a: number, b: number) => b - a));
    expect(new Set(pks).size).toBe(EXPORT_BATCH + 3);

    const audit = await api(server.url, "GET", `/api/audit?player_pk=${player.pk}`, { token: team.developerToken });
    expect(audit.body.audit).toEqual([
      {
        at: expect.any(String),
        actor: { kind: "developer", pk: expect.any(Number) },
        action: "player.export",
        player_pk: player.pk,
        request_id: "big-export-1",
      },
    ]);
  });

  it("has its audit row written before the first byte of the document is read", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    await storeMessages(server, player.pk, EXPORT_BATCH * 2, (i) => `word ${i}`);
    const res = await fetch(`${server.url}/api/players/${player.pk}/data`, {
      headers: { authorization: `Bearer ${team.developerToken}`, "x-request-id": "unread-export" },
    });
    expect(res.status).toBe(200);
    // The body is not read yet: the row is already there.
    const audit = await api(server.url, "GET", `/api/audit?player_pk=${player.pk}`, { token: team.developerToken });
    expect(audit.body.audit.map((r: { action: string; request_id: string }) => [r.action, r.request_id])).toEqual([["player.export", "unread-export"]]);
    const doc = JSON.parse(await res.text());
    expect(doc.history).toHaveLength(EXPORT_BATCH * 2);
  });

  it("answers 404 with an error body (and writes no row) for a player of another team", async () => {
    const { server, team } = file;
    const other = await createTeamFixture(server);
    const theirs = await createPlayer(server, other);
    const res = await api(server.url, "GET", `/api/players/${theirs.pk}/data`, { token: team.developerToken });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect((await api(server.url, "GET", `/api/audit?player_pk=${theirs.pk}`, { token: other.developerToken })).body.audit).toEqual([]);
  });
});

describe("an export whose database fails half-way", () => {
  it("is cut short (never a complete-looking document) and logged with ids and no words", async () => {
    // A server of its own: its incidents table goes away, so the export fails after the history was sent.
    const server = await startTestServer();
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      await storeMessages(server, player.pk, EXPORT_BATCH + 1, (i) => `a secret word ${i}`);
      await rawSql(server.deps.database, server.backend === "sqlite" ? "DROP TABLE safety_incidents" : "DROP TABLE safety_incidents CASCADE");
      const res = await fetch(`${server.url}/api/players/${player.pk}/data`, { headers: { authorization: `Bearer ${team.developerToken}` } });
      // The answer had begun (the audit row written, the history streaming) when the failure came.
      expect(res.status).toBe(200);
      const text = await res.text().catch(() => "");
      expect(() => JSON.parse(text)).toThrow();
      const failed = server.logs.map((line) => JSON.parse(line)).filter((entry) => entry.event === "player_export_failed");
      expect(failed).toEqual([expect.objectContaining({ team: team.teamId, player: player.pk })]);
      expect(JSON.stringify(failed)).not.toContain("secret word");
    } finally {
      await server.close();
    }
  });
});

describe("the export's memory", () => {
  let fake: FakeOpenAi;
  let server: TestServer;
  beforeAll(async () => {
    fake = startFakeOpenAi({ reply: ["Hello", " again!"] });
    server = await startTestServer({ HOOT_LLM_PROVIDER: "openai", HOOT_LLM_BASE_URL: fake.url, HOOT_LLM_MODEL: "reply-model", HOOT_TTS_PROVIDER: "local" });
  });
  afterAll(async () => {
    await server.close();
    await fake.stop();
  });

  it("is exactly the history the model is given at the next turn: the newest rows within the row cap, not all that fit the budget", async () => {
    const team = await createTeamFixture(server);
    const player = await createPlayer(server, team);
    // Many short messages: far more of them fit the character budget than the rows a turn loads.
    const count = 600;
    await storeMessages(server, player.pk, count, (i) => `m${i}`);
    const doc = (await api(server.url, "GET", `/api/players/${player.pk}/data`, { token: team.developerToken })).body;
    expect(doc.history).toHaveLength(count);
    expect(doc.memory.length).toBeGreaterThan(0);
    expect(doc.memory.length).toBeLessThan(count);
    // The newest messages, oldest first.
    expect(doc.memory).toEqual(doc.history.slice(count - doc.memory.length).map((m: { role: Role; text: string }) => ({ role: m.role, text: m.text })));

    const probe = await openSession(server.url, player.token);
    await probe.interact("what comes next?");
    probe.close();
    const sent = fake.replyCalls().at(-1)!.messages;
    const given = sent.filter((m) => m.role === "user" || m.role === "assistant").slice(0, -1);
    expect(sent.at(-1)).toEqual({ role: "user", content: "what comes next?" });
    expect(given.map((m) => ({ role: m.role, text: m.content }))).toEqual(doc.memory);
  });
});

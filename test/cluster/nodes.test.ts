/**
 * Nodes starting together and nodes dying: several nodes started at once on an empty database migrate it
 * once (the advisory lock), and a node killed (SIGKILL) in the middle of a turn loses no turn it had
 * acknowledged with interaction_complete: another node sees that history.
 */
import { afterAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../src/db/pg/migrations.gen.ts";
import { createPgDatabase, rawSql } from "../helpers/database.ts";
import { spawnServer } from "../helpers/process.ts";
import { createPlayer, createTeamFixture, startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";
import { PG_AVAILABLE } from "./nodes.ts";

describe.skipIf(!PG_AVAILABLE)("nodes starting and dying", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  it("migrates an empty database once when four nodes start at the same moment", async () => {
    const database = await createPgDatabase();
    cleanup.push(database.drop);
    const nodes = await Promise.all([1, 2, 3, 4].map(() => startTestServer({ HOOT_DATABASE_URL: database.url })));
    cleanup.push(async () => void (await Promise.all(nodes.map((n) => n.close()))));
    const applied = await rawSql(nodes[0]!.deps.database, "SELECT hash FROM drizzle.__drizzle_migrations");
    expect(applied.length).toBe(migrations.length);
    expect(new Set(applied.map((r) => r.hash)).size).toBe(migrations.length);
    // Every node serves, on the one schema.
    for (const node of nodes) expect((await fetch(`${node.url}/api/ready`)).status).toBe(200);
  });

  it("keeps every turn a node acknowledged before it was killed mid-turn; another node sees that history", async () => {
    const database = await createPgDatabase();
    cleanup.push(database.drop);
    const a: TestServer = await startTestServer({ HOOT_DATABASE_URL: database.url });
    cleanup.push(() => a.close());
    const team = await createTeamFixture(a);
    const player = await createPlayer(a, team);

    const dir = mkdtempSync(join(tmpdir(), "hoot-node-"));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    // Slow replies (10 tokens a second), so the second turn is surely still streaming when the node dies.
    const doomed = await spawnServer(dir, {
      HOOT_DATABASE_URL: database.url,
      HOOT_SECRET_KEY: TEST_SECRET,
      HOOT_DATA_DIR: dir,
      HOOT_LOCAL_TOKENS_PER_SECOND: "10",
      HOOT_LOG_LEVEL: "warn",
    });
    cleanup.push(async () => void doomed.proc.kill(9));
    const probe = await openSession(doomed.url, player.token);
    const first = await probe.interact("Tell me about owls", {}, 30_000);
    expect(first.events.some((e) => e.event === "interaction_complete")).toBe(true);

    const uid = crypto.randomUUID();
    probe.send({
      type: "stream",
      kind: "interact",
      uid,
      client_start_time: new Date().toISOString(),
      text: "Tell me a long story about a dragon",
      context: {},
      audio_output: false,
    });
    await probe.next((m) => m.uid === uid && m.event === "text", 15_000);
    doomed.proc.kill(9);
    await doomed.proc.exited;
    await probe.closed;
    expect(probe.messages.some((m) => m.uid === uid && m.event === "interaction_complete")).toBe(false);

    // The acknowledged turn is there: the child's words and the whole reply.
    const rows = await rawSql(a.deps.database, "SELECT role FROM conversation_messages WHERE player_id = ? ORDER BY id", player.pk);
    expect(rows.slice(0, 2).map((r) => r.role)).toEqual(["user", "assistant"]);
    // And a turn through another node continues from it.
    const again = await openSession(a.url, player.token);
    const next = await again.interact("What did I ask you first?");
    expect(next.events.some((e) => e.event === "interaction_complete")).toBe(true);
    again.close();
    const after = await rawSql(a.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM conversation_messages WHERE player_id = ?", player.pk);
    expect(after[0]!.n).toBeGreaterThanOrEqual(4);
  }, 60_000);
});

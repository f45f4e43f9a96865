/**
 * Safety incidents are recorded even while another connection holds a lock the write needs for a moment (an
 * admin command or a backup holding SQLite's write lock; on PostgreSQL a transaction holding the player's row):
 * the write is retried off the turn's path, and one that still fails is counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { holdLocks, rawSql } from "../helpers/database.ts";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

const DISCLOSURE = "I want to kill myself tonight";

const incidentsOf = (server: TestServer, playerId: number) =>
  rawSql(server.deps.database, "SELECT category FROM safety_incidents WHERE player_id = ?", playerId);

async function eventually(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await Bun.sleep(20);
  }
  return check();
}

const notRecorded = async (server: TestServer) => {
  const text = await server.deps.metrics.registry.metrics();
  return Number(/^hoot_safety_incidents_not_recorded_total (\d+)/m.exec(text)?.[1] ?? "0");
};

describe("an escalation while the database is briefly busy", () => {
  let server: TestServer;
  let team: TeamFixture;
  beforeAll(async () => {
    server = await startTestServer();
    team = await createTeamFixture(server);
  });
  afterAll(() => server.close());

  it("is still recorded once the lock is released, and the turn completes", async () => {
    const player = await createPlayer(server, team);
    const probe = await openSession(server.url, player.token);
    const holder = await holdLocks(server.deps.database, { players: [player.pk] });
    // Held well past the 5 ms a SQLite statement may wait, well inside HOOT_DB_LOCK_TIMEOUT_MS (5 s).
    const release = setTimeout(() => void holder.release(), 400);
    try {
      const { events } = await probe.interact(DISCLOSURE, {}, 20_000);
      expect(events.filter((e) => e.event === "safety_policy").map((e) => e.category)).toEqual(["self_harm"]);
      expect(events.map((e) => e.event ?? e.kind).slice(-2)).toEqual(["interaction_complete", "close"]);
    } finally {
      clearTimeout(release);
      await holder.release();
      probe.close();
    }
    expect(await eventually(async () => (await incidentsOf(server, player.pk)).length > 0)).toBe(true);
    expect(await incidentsOf(server, player.pk)).toEqual([{ category: "self_harm" }]);
    expect(await notRecorded(server)).toBe(0);
  }, 30_000);
});

describe("an escalation while the database stays busy past the lock timeout", () => {
  let server: TestServer;
  let team: TeamFixture;
  beforeAll(async () => {
    server = await startTestServer({ HOOT_DB_LOCK_TIMEOUT_MS: "100" });
    team = await createTeamFixture(server);
  });
  afterAll(() => server.close());

  it("is counted in hoot_safety_incidents_not_recorded_total and logged without any text", async () => {
    const player = await createPlayer(server, team);
    const probe = await openSession(server.url, player.token);
    const holder = await holdLocks(server.deps.database, { players: [player.pk] });
    try {
      await probe.interact(DISCLOSURE, {}, 20_000);
      expect(await eventually(() => server.logs.some((l) => l.includes("safety_incident_not_recorded")))).toBe(true);
    } finally {
      await holder.release();
      probe.close();
    }
    expect(await notRecorded(server)).toBe(1);
    expect(await incidentsOf(server, player.pk)).toEqual([]);
    expect(server.logs.join("\n")).not.toMatch(/kill|myself|tonight/);
  }, 30_000);
});

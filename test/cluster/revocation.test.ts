/**
 * Revocation across nodes: a change made through node A closes the sockets node C holds (pg_notify/LISTEN),
 * and a node whose listening connection dropped re-checks its sockets when it comes back.
 * The latency printed is from the HTTP answer on A to the close frame on C (a figure, not an assertion).
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, type TeamFixture } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";
import { type Nodes, PG_AVAILABLE, startNodes } from "./nodes.ts";

describe.skipIf(!PG_AVAILABLE)("revocation across three nodes", () => {
  let cluster: Nodes;
  let team: TeamFixture;
  const latencies: number[] = [];

  beforeAll(async () => {
    cluster = await startNodes(3);
    team = await createTeamFixture(cluster.nodes[0]!);
  });
  afterAll(async () => {
    if (latencies.length) console.log(`cross-node revocation: HTTP answer on A -> close on C: ${latencies.map((ms) => ms.toFixed(1)).join(", ")} ms`);
    await cluster?.close();
  });

  /** Runs `revoke` through A and returns the close code C's socket got and how long after A answered. */
  async function revokeThroughA(player: { token: string }, revoke: () => Promise<number>) {
    const [a, , c] = cluster.nodes;
    const probe = await openSession(c!.url, player.token);
    let closedAt = 0;
    const closed = probe.closed.then((result) => ((closedAt = performance.now()), result));
    const status = await revoke();
    const answeredAt = performance.now();
    const result = await Promise.race([closed, Bun.sleep(2000).then(() => null)]);
    expect(status).toBeLessThan(300);
    expect(result).not.toBeNull();
    latencies.push(Math.max(0, closedAt - answeredAt));
    expect(a).toBeDefined();
    return { result: result!, probe };
  }

  it("closes a socket held on C with 4403 when the player is deleted through A, and C writes nothing for them after", async () => {
    const [a, , c] = cluster.nodes;
    const player = await createPlayer(a!, team);
    const { result, probe } = await revokeThroughA(
      player,
      async () => (await api(a!.url, "DELETE", `/api/players/${player.pk}`, { token: team.developerToken })).status,
    );
    expect(result.code).toBe(4403);
    expect(probe.messages.at(-1)).toMatchObject({ type: "error", code: "credential_revoked" });
    const [rows] = await rawSql(c!.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM conversation_messages WHERE player_id = ?", player.pk);
    expect(rows!.n).toBe(0);
  });

  it("closes a socket held on C when the player's federated id is reset through A", async () => {
    const [a] = cluster.nodes;
    const player = await createPlayer(a!, team);
    const { result } = await revokeThroughA(
      player,
      async () => (await api(a!.url, "POST", `/api/players/${player.pk}/reset-federated-id`, { token: team.developerToken })).status,
    );
    expect(result.code).toBe(4403);
  });

  it("closes a socket held on C when the service account that logged the player in is deleted through A", async () => {
    const [a] = cluster.nodes;
    const other = await createTeamFixture(a!);
    const player = await createPlayer(a!, other);
    const { result } = await revokeThroughA(
      player,
      async () => (await api(a!.url, "DELETE", `/api/service-accounts/${other.publicKeyPk}`, { token: other.developerToken })).status,
    );
    expect(result.code).toBe(4403);
  });

  it("leaves the sockets of other players on C open", async () => {
    const [a, , c] = cluster.nodes;
    const kept = await createPlayer(a!, team);
    const gone = await createPlayer(a!, team);
    const keptProbe = await openSession(c!.url, kept.token);
    const { result } = await revokeThroughA(gone, async () => (await api(a!.url, "DELETE", `/api/players/${gone.pk}`, { token: team.developerToken })).status);
    expect(result.code).toBe(4403);
    const reply = await keptProbe.interact("hello");
    expect(reply.events.some((e) => e.event === "interaction_complete")).toBe(true);
    keptProbe.close();
  });

  it("re-checks every open socket when a node's listening connection comes back, closing those revoked meanwhile", async () => {
    const [a, b, c] = cluster.nodes;
    const revoked = await createPlayer(a!, team);
    const kept = await createPlayer(a!, team);
    const onB = await openSession(b!.url, revoked.token);
    const onC = await openSession(c!.url, revoked.token);
    const keptOnC = await openSession(c!.url, kept.token);
    // Behind every node's back: no notification is sent, as when one is lost while a listener is down.
    await rawSql(a!.deps.database, "UPDATE players SET version = version + 1 WHERE id = ?", revoked.pk);
    await Bun.sleep(100);
    expect(onC.ws.readyState).toBe(WebSocket.OPEN);
    // Drop every node's listening connection; each reconnects, re-subscribes and re-checks.
    const dropped = await rawSql(
      a!.deps.database,
      "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'",
    );
    expect(dropped.length).toBe(3);
    const [closedB, closedC] = await Promise.all([onB.closed, onC.closed].map((p) => Promise.race([p, Bun.sleep(15_000).then(() => null)])));
    expect(closedB?.code).toBe(4403);
    expect(closedC?.code).toBe(4403);
    expect(keptOnC.ws.readyState).toBe(WebSocket.OPEN);
    // And the new subscription works: a deletion through A reaches C again.
    const { result } = await revokeThroughA(kept, async () => (await api(a!.url, "DELETE", `/api/players/${kept.pk}`, { token: team.developerToken })).status);
    expect(result.code).toBe(4403);
    expect((await keptOnC.closed).code).toBe(4403);
  }, 40_000);
});

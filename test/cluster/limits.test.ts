/**
 * Limits that hold for the whole cluster, across two nodes on one database: failed logins (counters on the
 * primary), the per-player socket cap (leases; a dead node's expire), and the retention purge (once per
 * cluster per interval, one node at a time).
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { generateKey } from "../../src/auth/keys.ts";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, type TeamFixture } from "../helpers/server.ts";
import { openSession, WsProbe } from "../helpers/ws.ts";
import { type Nodes, PG_AVAILABLE, startNodes } from "./nodes.ts";

describe.skipIf(!PG_AVAILABLE)("limits across two nodes", () => {
  let cluster: Nodes;
  let team: TeamFixture;

  beforeAll(async () => {
    cluster = await startNodes(2, { HOOT_LOGIN_FAILURES_PER_MINUTE: "4", HOOT_WS_MAX_SOCKETS_PER_PLAYER: "2", HOOT_TRUST_PROXY: "true" });
    team = await createTeamFixture(cluster.nodes[0]!);
  });
  afterAll(() => cluster?.close());

  it("counts failed logins from one address on both nodes together, and still lets a good key in", async () => {
    const [a, b] = cluster.nodes;
    const from = { "x-forwarded-for": "203.0.113.9" };
    const bad = () => ({ body: { api_key: generateKey("dk", "dev") }, headers: from });
    // Two failures on each node: four in all, the limit.
    for (const node of [a!, b!, a!, b!]) expect((await api(node.url, "POST", "/api/auth/login", bad())).status).toBe(401);
    for (const node of [a!, b!]) {
      const blocked = await api(node.url, "POST", "/api/auth/login", bad());
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await api(b!.url, "POST", "/api/auth/login", { body: { api_key: team.developerKey }, headers: from })).status).toBe(200);
    // Another address is not affected.
    expect(
      (await api(a!.url, "POST", "/api/auth/login", { body: { api_key: generateKey("dk", "dev") }, headers: { "x-forwarded-for": "203.0.113.10" } })).status,
    ).toBe(401);
  });

  it("refuses a federated id on every node once it failed its limit across them, even with the right one after", async () => {
    const [a, b] = cluster.nodes;
    const player = await createPlayer(a!, team);
    const wrong = generateKey("fid", "dev");
    for (let i = 0; i < 4; i++) {
      const node = i % 2 ? b! : a!;
      expect(
        (
          await api(node.url, "POST", "/api/auth/login", {
            body: { api_key: team.publicKey, federated_id: wrong },
            headers: { "x-forwarded-for": `198.51.100.${i}` },
          })
        ).status,
      ).toBe(401);
    }
    expect(
      (
        await api(b!.url, "POST", "/api/auth/login", {
          body: { api_key: team.publicKey, federated_id: wrong },
          headers: { "x-forwarded-for": "198.51.100.77" },
        })
      ).status,
    ).toBe(429);
    expect((await api(a!.url, "POST", "/api/auth/login", { body: { api_key: team.publicKey, federated_id: player.federatedId } })).status).toBe(200);
  });

  it("caps a player's sockets across nodes: two held on A and B, a third on either is refused with 4429", async () => {
    const [a, b] = cluster.nodes;
    const player = await createPlayer(a!, team);
    const one = await openSession(a!.url, player.token);
    const two = await openSession(b!.url, player.token);
    for (const node of [a!, b!]) {
      const third = await WsProbe.open(node.url);
      third.send({ type: "request", kind: "authenticate", uid: crypto.randomUUID(), client_start_time: new Date().toISOString(), access_token: player.token });
      expect((await third.closed).code).toBe(4429);
      expect(third.messages.at(-1)).toMatchObject({ code: "too_many_sockets" });
    }
    // A socket that closes gives its place back, whichever node held it.
    one.close();
    await one.closed;
    let again: WsProbe | null = null;
    for (let i = 0; i < 40 && !again; i++) {
      again = await openSession(b!.url, player.token).catch(() => null);
      if (!again) await Bun.sleep(50);
    }
    expect(again).not.toBeNull();
    again!.close();
    two.close();
  });

  it("admits at most the cap when sockets of one player authenticate on both nodes at the same moment", async () => {
    const [a, b] = cluster.nodes;
    const player = await createPlayer(a!, team);
    const probes = await Promise.all([a!, b!, a!, b!, a!, b!].map((node) => WsProbe.open(node.url)));
    const answers = await Promise.all(probes.map((p) => p.request("authenticate", { access_token: player.token }).catch(() => null)));
    await Bun.sleep(100);
    const admitted = answers.filter((r) => r?.kind === "authenticate").length;
    expect(admitted).toBe(2);
    const [row] = await rawSql(a!.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM socket_leases WHERE player_id = ?", player.pk);
    expect(row!.n).toBe(2);
    for (const p of probes) p.close();
  });

  it("stops counting a dead node's sockets once their leases expire", async () => {
    const [a] = cluster.nodes;
    const player = await createPlayer(a!, team);
    // Two leases of a node that died (nobody renews them), expired a moment ago.
    for (const id of ["dead:1", "dead:2"]) {
      await rawSql(a!.deps.database, "INSERT INTO socket_leases (id, player_id, node_id, expires_at) VALUES (?, ?, 'dead', ?)", id, player.pk, Date.now() - 1);
    }
    const probe = await openSession(a!.url, player.token);
    const [row] = await rawSql(a!.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM socket_leases WHERE player_id = ?", player.pk);
    expect(row!.n).toBe(1);
    probe.close();
    // While they are live they count.
    const other = await createPlayer(a!, team);
    for (const id of ["dead:3", "dead:4"]) {
      await rawSql(
        a!.deps.database,
        "INSERT INTO socket_leases (id, player_id, node_id, expires_at) VALUES (?, ?, 'dead', ?)",
        id,
        other.pk,
        Date.now() + 60_000,
      );
    }
    const refused = await WsProbe.open(a!.url);
    refused.send({ type: "request", kind: "authenticate", uid: crypto.randomUUID(), client_start_time: new Date().toISOString(), access_token: other.token });
    expect((await refused.closed).code).toBe(4429);
  });
});

describe.skipIf(!PG_AVAILABLE)("the retention purge across nodes", () => {
  let cluster: Nodes | null = null;
  afterAll(() => cluster?.close());

  it("runs on one node per interval: two nodes starting together purge once, a third started later skips the round", async () => {
    // One node makes the data, stops; then two start together (both sweep at start).
    cluster = await startNodes(1, { HOOT_RETENTION_SWEEP_MS: "3600000", HOOT_LOG_LEVEL: "debug" });
    const first = cluster.nodes[0]!;
    const team = await createTeamFixture(first);
    const player = await createPlayer(first, team);
    await rawSql(first.deps.database, "DELETE FROM hoot_meta WHERE name LIKE 'job_last_run:%'");
    const old = Date.now() - 40 * 86_400_000;
    for (let i = 0; i < 3; i++)
      await rawSql(first.deps.database, "INSERT INTO conversation_messages (player_id, role, text, created_at) VALUES (?, 'user', 'old', ?)", player.pk, old);
    const [b, c] = await Promise.all([cluster.add(), cluster.add()]);
    const count = async () => (await rawSql(first.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM conversation_messages"))[0]!.n;
    for (let i = 0; i < 100 && (await count()) > 0; i++) await Bun.sleep(50);
    expect(await count()).toBe(0);
    await Bun.sleep(200);
    const events = (node: typeof b) => node.logs.map((l) => JSON.parse(l).event as string).filter((e) => e?.startsWith("retention_purge"));
    expect([...events(b), ...events(c)].sort()).toEqual(["retention_purge", "retention_purge_skipped"]);

    // Within the interval a node that starts skips the round, leaving newly expired data for the next one.
    for (let i = 0; i < 2; i++)
      await rawSql(first.deps.database, "INSERT INTO conversation_messages (player_id, role, text, created_at) VALUES (?, 'user', 'old', ?)", player.pk, old);
    const d = await cluster.add();
    for (let i = 0; i < 20 && !events(d).length; i++) await Bun.sleep(50);
    expect(events(d)).toEqual(["retention_purge_skipped"]);
    expect(await count()).toBe(2);
  }, 30_000);
});

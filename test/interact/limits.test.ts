import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, login, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { openSession, WsProbe } from "../helpers/ws.ts";

let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  server = await startTestServer({ HOOT_WS_AUTH_TIMEOUT_MS: "300", HOOT_WS_MESSAGES_PER_MINUTE: "20", HOOT_WS_MAX_SOCKETS_PER_PLAYER: "2" });
  team = await createTeamFixture(server);
});
afterAll(() => server.close());

describe("interact limits and closes", () => {
  it("closes a socket that does not authenticate in time with 1008", async () => {
    const probe = await WsProbe.open(server.url);
    const closed = await probe.closed;
    expect(closed.code).toBe(1008);
    expect(probe.messages.at(-1)).toMatchObject({ type: "error", code: "auth_timeout" });
  });

  it("closes a socket that sends a message over the size limit with 1009", async () => {
    const player = await createPlayer(server, team);
    const probe = await openSession(server.url, player.token);
    probe.send({ type: "request", kind: "ping", uid: "x".repeat(70 * 1024) });
    expect((await probe.closed).code).toBe(1009);
  });

  it("closes a flooding socket with 4429", async () => {
    const probe = await WsProbe.open(server.url);
    for (let i = 0; i < 25; i++) probe.send({ type: "request", kind: "ping", uid: `p${i}` });
    expect((await probe.closed).code).toBe(4429);
    expect(probe.messages.filter((m) => m.kind === "ping")).toHaveLength(20);
    expect(probe.messages.at(-1)).toMatchObject({ type: "error", code: "rate_limited" });
  });

  it("ends a running stream with its close before a rate-limit close", async () => {
    const own = await startTestServer({ HOOT_WS_MESSAGES_PER_MINUTE: "5", HOOT_LOCAL_TOKENS_PER_SECOND: "10" });
    try {
      const t = await createTeamFixture(own);
      const player = await createPlayer(own, t);
      const probe = await openSession(own.url, player.token);
      const uid = crypto.randomUUID();
      probe.send({ type: "stream", kind: "interact", uid, text: "Tell me a story", context: {}, audio_output: false });
      await probe.next((m) => m.uid === uid && m.event === "interaction_started");
      for (let i = 0; i < 5; i++) probe.send({ type: "request", kind: "ping", uid: `p${i}` });
      expect((await probe.closed).code).toBe(4429);
      const closeAt = probe.messages.findIndex((m) => m.uid === uid && m.kind === "close");
      const errorAt = probe.messages.findIndex((m) => m.type === "error" && m.code === "rate_limited");
      expect(closeAt).toBeGreaterThan(-1);
      expect(closeAt).toBeLessThan(errorAt);
    } finally {
      await own.close();
    }
  });

  it("limits sockets waiting to authenticate per address (1013)", async () => {
    const own = await startTestServer({ HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS: "3" });
    try {
      const waiting = await Promise.all([1, 2, 3].map(() => WsProbe.open(own.url)));
      const fourth = await WsProbe.open(own.url);
      expect((await fourth.closed).code).toBe(1013);
      expect(fourth.messages.at(-1)).toMatchObject({ type: "error", code: "too_many_pending" });
      // Once one authenticates, another may wait.
      const t = await createTeamFixture(own);
      const player = await createPlayer(own, t);
      expect((await waiting[0]!.request("authenticate", { access_token: player.token })).kind).toBe("authenticate");
      const fifth = await WsProbe.open(own.url);
      expect((await fifth.request("ping")).kind).toBe("ping");
      for (const p of [...waiting, fifth]) p.close();
    } finally {
      await own.close();
    }
  });

  it("caps sockets per player", async () => {
    const player = await createPlayer(server, team);
    const a = await openSession(server.url, player.token);
    const b = await openSession(server.url, player.token);
    const c = await WsProbe.open(server.url);
    c.send({ type: "request", kind: "authenticate", uid: "c", access_token: player.token });
    expect((await c.closed).code).toBe(4429);
    expect(c.messages.at(-1)).toMatchObject({ code: "too_many_sockets" });
    a.close();
    await a.closed;
    await Bun.sleep(20);
    const d = await openSession(server.url, player.token);
    b.close();
    d.close();
  });

  it("closes the player's open sockets with 4403 when the player is deleted, and writes no rows for them after", async () => {
    const player = await createPlayer(server, team);
    const probe = await openSession(server.url, player.token);
    await probe.interact("hello");
    const res = await api(server.url, "DELETE", `/api/players/${player.pk}`, { token: team.developerToken });
    expect(res.status).toBe(204);
    expect((await probe.closed).code).toBe(4403);
    const [rows] = await rawSql(server.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM conversation_messages WHERE player_id = ?", player.pk);
    expect(rows!.n).toBe(0);
  });

  it("closes sockets with 4403 when the player's federated id is reset or the service account is deleted", async () => {
    const player = await createPlayer(server, team);
    const probe = await openSession(server.url, player.token);
    await api(server.url, "POST", `/api/players/${player.pk}/reset-federated-id`, { token: team.developerToken });
    expect((await probe.closed).code).toBe(4403);

    const other = await createTeamFixture(server);
    const p2 = await createPlayer(server, other);
    const probe2 = await openSession(server.url, p2.token);
    await api(server.url, "DELETE", `/api/service-accounts/${other.publicKeyPk}`, { token: other.developerToken });
    expect((await probe2.closed).code).toBe(4403);
    expect(probe2.messages.at(-1)).toMatchObject({ type: "error", code: "credential_revoked" });
  });

  it("closes a client that stops reading at the backpressure limit instead of buffering without bound", async () => {
    const small = await startTestServer({ HOOT_WS_BACKPRESSURE_BYTES: "65536", HOOT_WS_MESSAGES_PER_MINUTE: "100000" });
    try {
      const t = await createTeamFixture(small);
      const player = await createPlayer(small, t);
      const url = new URL(small.url);
      // A raw client with a 4 KiB receive buffer that never reads (python: Bun's node:net cannot stop reading).
      const flood = Bun.spawn(["python3", join(import.meta.dir, "../fixtures/ws-flood.py"), url.hostname, url.port, player.token, "400"], {
        stdout: "pipe",
        stderr: "inherit",
      });
      const deadline = Date.now() + 15_000;
      const closedLine = () => small.logs.find((l) => l.includes('"ws_closed"'));
      while (!closedLine() && Date.now() < deadline) await Bun.sleep(50);
      flood.kill();
      await flood.exited;
      expect(closedLine()).toBeDefined();
      // The server dropped it on its own (abnormal close), and holds no session for it any more.
      expect(JSON.parse(closedLine()!).code).toBe(1006);
      expect(small.interact.connections.size).toBe(0);
    } finally {
      await small.close();
    }
  }, 30_000);

  it("with HOOT_WS_CLOSE_AT_TOKEN_EXPIRY, survives past the first token's expiry after re-authenticating, then closes with 4401 at the new expiry", async () => {
    // exp has whole-second precision: with a 4 s lifetime the first token dies within 3-4 s of login and
    // the one fetched at 1.5 s within 4.5-5.5 s, so 4.2 s is after the first and before the second.
    const short = await startTestServer({ HOOT_TOKEN_TTL_SECONDS: "4", HOOT_CLOCK_TOLERANCE_SECONDS: "0", HOOT_WS_CLOSE_AT_TOKEN_EXPIRY: "true" });
    try {
      const t = await createTeamFixture(short);
      const player = await createPlayer(short, t);
      const started = Date.now();
      const probe = await openSession(short.url, player.token);
      await Bun.sleep(1500 - (Date.now() - started));
      const fresh = await login(short.url, { api_key: t.publicKey, federated_id: player.federatedId });
      expect((await probe.request("authenticate", { access_token: fresh.access_token })).kind).toBe("authenticate");
      await Bun.sleep(4200 - (Date.now() - started));
      // The first token has expired by now, the socket is still usable.
      expect((await probe.request("ping")).kind).toBe("ping");
      const closed = await probe.closed;
      expect(closed.code).toBe(4401);
      expect(probe.messages.at(-1)).toMatchObject({ type: "error", code: "token_expired" });
    } finally {
      await short.close();
    }
  }, 15_000);

  it("on shutdown every open stream sends its close, then sockets close with 1001", async () => {
    const own = await startTestServer({ HOOT_LOCAL_TOKENS_PER_SECOND: "10" });
    const t = await createTeamFixture(own);
    const player = await createPlayer(own, t);
    const probe = await openSession(own.url, player.token);
    const uid = crypto.randomUUID();
    probe.send({ type: "stream", kind: "interact", uid, text: "Tell me a story", context: {}, audio_output: false });
    await probe.next((m) => m.uid === uid && m.event === "interaction_started");
    await own.close();
    expect((await probe.closed).code).toBe(1001);
    expect(probe.messages.some((m) => m.uid === uid && m.kind === "close")).toBe(true);
    expect(probe.messages.at(-1)).toMatchObject({ type: "error", code: "server_shutting_down" });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { SignJWT } from "jose";
import { everything } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let a: TeamFixture;
let b: TeamFixture;

beforeAll(async () => {
  server = await startTestServer();
  a = await createTeamFixture(server);
  b = await createTeamFixture(server);
});
afterAll(() => server.close());

describe("team isolation", () => {
  it("answers 404 for every route and method given another team's ids", async () => {
    const theirs = await createPlayer(server, b);
    const routes: [string, string, unknown?][] = [
      ["GET", `/api/players/${theirs.pk}`],
      ["PATCH", `/api/players/${theirs.pk}`, { external_id: "stolen" }],
      ["DELETE", `/api/players/${theirs.pk}`],
      ["POST", `/api/players/${theirs.pk}/reset-federated-id`],
      ["PATCH", `/api/players/${theirs.pk}`, { consent: "granted" }],
      ["GET", `/api/players/${theirs.pk}/data`],
      ["DELETE", `/api/players/${theirs.pk}/history`],
      ["PATCH", `/api/teams/${b.teamId}`, { require_consent: true }],
      ["DELETE", `/api/service-accounts/${b.publicKeyPk}`],
      ["DELETE", `/api/service-accounts/${b.backendKeyPk}`],
    ];
    for (const [method, path, body] of routes) {
      const res = await api(server.url, method, path, { token: a.developerToken, body });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    // Nothing of team b changed.
    const still = await api(server.url, "GET", `/api/players/${theirs.pk}`, { token: b.developerToken });
    expect(still.body).toEqual({ pk: theirs.pk, external_id: theirs.externalId, federated_id: theirs.federatedId, consent: "none", consent_updated_at: null });
    // Another team's player has no rows in this team's audit trail, and none of these calls wrote one in theirs but b's own read.
    expect((await api(server.url, "GET", `/api/audit?player_pk=${theirs.pk}`, { token: a.developerToken })).body).toEqual({ audit: [], next: null });
    const theirAudit = await api(server.url, "GET", `/api/audit?player_pk=${theirs.pk}`, { token: b.developerToken });
    expect(theirAudit.body.audit.map((r: { action: string }) => r.action)).toEqual(["player.read"]);
    expect((await api(server.url, "GET", `/api/teams`, { token: b.developerToken })).status).toBe(200);
    const list = await api(server.url, "GET", "/api/players/", { token: a.developerToken });
    expect(list.body.players.map((p: { pk: number }) => p.pk)).not.toContain(theirs.pk);
    const sas = await api(server.url, "GET", "/api/service-accounts", { token: b.developerToken });
    expect(sas.body.service_accounts).toHaveLength(2);
  });

  it("a playerCreate service token creates players only in its own team", async () => {
    const service = (await api(server.url, "POST", "/api/auth/login", { body: { api_key: a.backendKey } })).body.access_token;
    const made = await api(server.url, "POST", "/api/players", { token: service, body: { external_id: "svc-made" } });
    expect((await api(server.url, "GET", `/api/players/${made.body.pk}`, { token: a.developerToken })).status).toBe(200);
    expect((await api(server.url, "GET", `/api/players/${made.body.pk}`, { token: b.developerToken })).status).toBe(404);
    expect((await api(server.url, "GET", "/api/players/", { token: service })).status).toBe(403);
  });
});

describe("token tampering", () => {
  const key = () => server.deps.secrets.tokenKey;
  const now = () => Math.floor(Date.now() / 1000);
  const meId = async () => (await api(server.url, "GET", "/api/users/me", { token: a.developerToken })).body.pk as number;
  const claims = async () => ({ typ: "developer", sub: String(await meId()), tid: a.teamId, ver: 1 });
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const expectRefused = async (token: string) => {
    const res = await api(server.url, "GET", "/api/users/me", { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthorized");
  };

  it("accepts a genuine token built the same way (so the refusals below mean something)", async () => {
    const token = await new SignJWT(await claims())
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(now() + 60)
      .sign(key());
    expect((await api(server.url, "GET", "/api/users/me", { token })).status).toBe(200);
  });

  it("refuses a bad signature", async () => {
    const [h, p] = a.developerToken.split(".");
    await expectRefused(`${h}.${p}.${Buffer.alloc(32, 1).toString("base64url")}`);
  });

  it("refuses alg none", async () => {
    const [, p] = a.developerToken.split(".");
    await expectRefused(`${b64({ alg: "none", typ: "JWT" })}.${p}.`);
  });

  it("refuses HS512 even with the right key", async () => {
    await expectRefused(
      await new SignJWT(await claims())
        .setProtectedHeader({ alg: "HS512" })
        .setExpirationTime(now() + 60)
        .sign(key()),
    );
  });

  it("refuses an edited payload", async () => {
    const [h, , s] = a.developerToken.split(".");
    const payload = JSON.parse(Buffer.from(a.developerToken.split(".")[1]!, "base64url").toString());
    await expectRefused(`${h}.${b64({ ...payload, tid: b.teamId })}.${s}`);
  });

  it("refuses a token without exp", async () => {
    await expectRefused(await new SignJWT(await claims()).setProtectedHeader({ alg: "HS256" }).sign(key()));
  });

  it("refuses a wrong token type", async () => {
    await expectRefused(
      await new SignJWT({ ...(await claims()), typ: "admin" })
        .setProtectedHeader({ alg: "HS256" })
        .setExpirationTime(now() + 60)
        .sign(key()),
    );
  });

  it("refuses an expired token (past the 30 s tolerance)", async () => {
    await expectRefused(
      await new SignJWT(await claims())
        .setProtectedHeader({ alg: "HS256" })
        .setExpirationTime(now() - 31)
        .sign(key()),
    );
  });

  it("refuses a token signed with another key", async () => {
    await expectRefused(
      await new SignJWT(await claims())
        .setProtectedHeader({ alg: "HS256" })
        .setExpirationTime(now() + 60)
        .sign(new Uint8Array(32).fill(9)),
    );
  });
});

describe("secrets at rest and in logs", () => {
  it("keeps keys, federated ids and tokens out of the database file and the logs", async () => {
    const player = await createPlayer(server, a);
    await api(server.url, "GET", "/api/users/me", { token: a.developerToken });
    await api(server.url, "POST", "/api/auth/login", { body: { api_key: a.developerKey.slice(0, -2) + "zz" } });
    const file = await everything(server.deps.database);
    const logs = server.logs.join("\n");
    expect(server.logs.length).toBeGreaterThan(5);
    for (const secret of [a.developerKey, a.publicKey, a.backendKey, player.federatedId, player.token, a.developerToken]) {
      const body = secret.slice(-20);
      expect(file.includes(Buffer.from(body))).toBe(false);
      expect(logs.includes(body)).toBe(false);
    }
    // One structured line per request, with method, route, status, duration and request id.
    const line = server.logs.map((l) => JSON.parse(l)).find((l) => l.event === "http_request" && l.route === "/api/users/me");
    expect(line).toMatchObject({ method: "GET", status: 200, requestId: expect.any(String), durationMs: expect.any(Number) });
  });
});

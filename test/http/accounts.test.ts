import { describe, expect, it } from "bun:test";
import { api, createPlayer, createTeamFixture, login, serverForFile } from "../helpers/server.ts";
import { addTeamMember, createTeam } from "../../src/teams/service.ts";

const file = serverForFile();

describe("GET /api/users/me and key rotation", () => {
  it("returns the developer with their key and teams", async () => {
    const me = await api(file.server.url, "GET", "/api/users/me", { token: file.team.developerToken });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      pk: expect.any(Number),
      name: `Dev ${file.team.teamName}`,
      email: `dev-${file.team.teamName}@example.com`,
      api_key: file.team.developerKey,
      teams: [{ pk: file.team.teamId, name: file.team.teamName }],
    });
  });

  it("refuses service tokens (developer only)", async () => {
    const service = await login(file.server.url, { api_key: file.team.backendKey });
    const res = await api(file.server.url, "GET", "/api/users/me", { token: service.access_token });
    expect(res.status).toBe(403);
  });

  it("rotating the key ends the old key and every token it minted at once", async () => {
    const fixture = await createTeamFixture(file.server);
    const rotated = await api(file.server.url, "POST", "/api/users/me/api-key", { token: fixture.developerToken });
    expect(rotated.status).toBe(200);
    expect(rotated.body.api_key).not.toBe(fixture.developerKey);
    expect((await api(file.server.url, "GET", "/api/users/me", { token: fixture.developerToken })).status).toBe(401);
    expect((await api(file.server.url, "POST", "/api/auth/login", { body: { api_key: fixture.developerKey } })).status).toBe(401);
    expect((await api(file.server.url, "POST", "/api/players", { token: fixture.developerKey, body: { external_id: "x" } })).status).toBe(401);
    const fresh = await login(file.server.url, { api_key: rotated.body.api_key });
    const me = await api(file.server.url, "GET", "/api/users/me", { token: fresh.access_token });
    expect(me.body.api_key).toBe(rotated.body.api_key);
  });
});

describe("GET /api/teams", () => {
  it("lists every team of the caller", async () => {
    const fixture = await createTeamFixture(file.server);
    const extra = `extra-${Date.now()}`;
    createTeam(file.server.deps, extra);
    addTeamMember(file.server.deps, extra, `dev-${fixture.teamName}@example.com`);
    const token = (await login(file.server.url, { api_key: fixture.developerKey, team_name: fixture.teamName })).access_token;
    const res = await api(file.server.url, "GET", "/api/teams", { token });
    expect(res.status).toBe(200);
    expect(res.body.teams.map((t: { name: string }) => t.name)).toEqual([fixture.teamName, extra]);
  });
});

describe("service accounts", () => {
  it("creates login-only and playerCreate keys; lists login-only in full and playerCreate masked", async () => {
    const fixture = await createTeamFixture(file.server);
    const pub = await api(file.server.url, "POST", "/api/service-accounts", { token: fixture.developerToken, body: { name: "ios-app", permissions: ["playerLogin"] } });
    expect(pub.status).toBe(201);
    expect(pub.body.permissions).toEqual(["playerLogin"]);
    expect(pub.body.api_key).toMatch(/^hoot_dev_sk_/);
    const priv = await api(file.server.url, "POST", "/api/service-accounts", { token: fixture.developerToken, body: { name: "server", permissions: ["playerLogin", "playerCreate"] } });
    expect(priv.status).toBe(201);
    expect(priv.body.permissions).toEqual(["playerLogin", "playerCreate"]);
    const list = await api(file.server.url, "GET", "/api/service-accounts", { token: fixture.developerToken });
    expect(list.status).toBe(200);
    const byName = Object.fromEntries(list.body.service_accounts.map((s: { name: string }) => [s.name, s]));
    expect(byName["ios-app"].api_key).toBe(pub.body.api_key);
    expect(byName.server.api_key).not.toBe(priv.body.api_key);
    expect(byName.server.api_key).toContain("…");
    expect(priv.body.api_key.startsWith(byName.server.api_key.split("…")[0])).toBe(true);
    // The new playerCreate key works for a service token.
    await login(file.server.url, { api_key: priv.body.api_key });
  });

  it("refuses a duplicate name (409), unknown permissions (400) and unknown fields (400)", async () => {
    const fixture = await createTeamFixture(file.server);
    const token = fixture.developerToken;
    expect((await api(file.server.url, "POST", "/api/service-accounts", { token, body: { name: "app" } })).status).toBe(409);
    expect((await api(file.server.url, "POST", "/api/service-accounts", { token, body: { name: "x", permissions: ["admin"] } })).status).toBe(400);
    expect((await api(file.server.url, "POST", "/api/service-accounts", { token, body: { name: "y", team: 1 } })).status).toBe(400);
  });

  it("deleting a service account ends its key, its service tokens and the player tokens it minted", async () => {
    const fixture = await createTeamFixture(file.server);
    const service = await login(file.server.url, { api_key: fixture.backendKey });
    const player = await createPlayer(file.server, fixture);
    expect((await api(file.server.url, "DELETE", `/api/service-accounts/${fixture.backendKeyPk}`, { token: fixture.developerToken })).status).toBe(204);
    expect((await api(file.server.url, "POST", "/api/players", { token: service.access_token, body: { external_id: "late" } })).status).toBe(401);
    expect((await api(file.server.url, "POST", "/api/auth/login", { body: { api_key: fixture.backendKey } })).status).toBe(401);
    expect((await api(file.server.url, "DELETE", `/api/service-accounts/${fixture.publicKeyPk}`, { token: fixture.developerToken })).status).toBe(204);
    const revoked = await file.server.deps.callers.fromToken(player.token);
    expect(revoked).toBeNull();
    expect((await api(file.server.url, "DELETE", `/api/service-accounts/${fixture.publicKeyPk}`, { token: fixture.developerToken })).status).toBe(404);
  });

  it("is developer only", async () => {
    const service = await login(file.server.url, { api_key: file.team.backendKey });
    expect((await api(file.server.url, "GET", "/api/service-accounts", { token: service.access_token })).status).toBe(403);
    expect((await api(file.server.url, "POST", "/api/service-accounts", { token: service.access_token, body: { name: "z" } })).status).toBe(403);
  });
});

describe("system routes", () => {
  it("answers health, ready, metrics, the OpenAPI document and an offline docs page", async () => {
    expect((await api(file.server.url, "GET", "/api/health")).body).toEqual({ status: "ok" });
    expect((await api(file.server.url, "GET", "/api/ready")).body).toEqual({ status: "ready" });
    const spec = await api(file.server.url, "GET", "/api/openapi.json");
    expect(spec.status).toBe(200);
    for (const path of ["/api/auth/login", "/api/players/{player_pk}", "/api/users/me", "/api/service-accounts"]) expect(Object.keys(spec.body.paths)).toContain(path);
    const docs = await fetch(`${file.server.url}/docs`);
    const html = await docs.text();
    expect(docs.headers.get("content-type")).toContain("text/html");
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${file.server.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it("answers unknown routes with a JSON 404", async () => {
    const res = await api(file.server.url, "GET", "/api/nope");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
  });
});

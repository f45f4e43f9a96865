import { describe, expect, it } from "bun:test";
import { SAFETY_POLICIES } from "../../src/engine/safety/index.ts";
import { addTeamMember, createTeam } from "../../src/teams/service.ts";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, login, serverForFile, startTestServer } from "../helpers/server.ts";

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
    await createTeam(file.server.deps, extra);
    await addTeamMember(file.server.deps, extra, `dev-${fixture.teamName}@example.com`);
    const token = (await login(file.server.url, { api_key: fixture.developerKey, team_name: fixture.teamName })).access_token;
    const res = await api(file.server.url, "GET", "/api/teams", { token });
    expect(res.status).toBe(200);
    expect(res.body.teams.map((t: { name: string }) => t.name)).toEqual([fixture.teamName, extra]);
  });
});

describe("service accounts", () => {
  it("creates login-only and playerCreate keys; lists login-only in full and playerCreate masked", async () => {
    const fixture = await createTeamFixture(file.server);
    const pub = await api(file.server.url, "POST", "/api/service-accounts", {
      token: fixture.developerToken,
      body: { name: "ios-app", permissions: ["playerLogin"] },
    });
    expect(pub.status).toBe(201);
    expect(pub.body.permissions).toEqual(["playerLogin"]);
    expect(pub.body.api_key).toMatch(/^hoot_dev_sk_/);
    const priv = await api(file.server.url, "POST", "/api/service-accounts", {
      token: fixture.developerToken,
      body: { name: "server", permissions: ["playerLogin", "playerCreate"] },
    });
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
    for (const path of ["/api/auth/login", "/api/players/{player_pk}", "/api/users/me", "/api/service-accounts"])
      expect(Object.keys(spec.body.paths)).toContain(path);
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

describe("GET /api/policies", () => {
  it("lists default and the built-in policies for developer and service tokens, and refuses players", async () => {
    const service = await login(file.server.url, { api_key: file.team.backendKey });
    for (const token of [file.team.developerToken, service.access_token]) {
      const res = await api(file.server.url, "GET", "/api/policies", { token });
      expect(res.status).toBe(200);
      expect(res.body.policies[0]).toEqual({ name: "default", description: expect.stringContaining("children_strict"), builtin: true });
      expect(res.body.policies.slice(1)).toEqual([...SAFETY_POLICIES]);
      expect(res.body.policies.map((p: { name: string }) => p.name)).toContain("children_strict");
    }
    const player = await createPlayer(file.server, file.team);
    expect((await api(file.server.url, "GET", "/api/policies", { token: player.token })).status).toBe(403);
    expect((await api(file.server.url, "GET", "/api/policies")).status).toBe(401);
  });
});

describe("service accounts and developers the hosted engine's way", () => {
  it("POST /api/users creates playerLogin and playerCreate service accounts that GET /api/users/service_accounts lists", async () => {
    const fixture = await createTeamFixture(file.server);
    const token = fixture.developerToken;
    const made = await api(file.server.url, "POST", "/api/users", { token, body: { name: "kiosk", email: null, user_type: "playerLogin" } });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ pk: expect.any(Number), name: "kiosk", user_type: "playerLogin", api_key: expect.stringMatching(/^hoot_dev_sk_/) });
    const backend = await api(file.server.url, "POST", "/api/users", { token, body: { name: "server2", user_type: "playerCreate" } });
    expect(backend.body.user_type).toBe("playerCreate");
    const list = await api(file.server.url, "GET", "/api/users/service_accounts", { token });
    expect(list.status).toBe(200);
    expect(list.body.service_accounts.map((s: { name: string; user_type: string }) => [s.name, s.user_type])).toEqual([
      ["app", "playerLogin"],
      ["backend", "playerCreate"],
      ["kiosk", "playerLogin"],
      ["server2", "playerCreate"],
    ]);
    expect(Object.keys(list.body.service_accounts[0]).sort()).toEqual(["created_at", "name", "pk", "user_type"]);
    // The same accounts through hoot's own route.
    const own = await api(file.server.url, "GET", "/api/service-accounts", { token });
    expect(own.body.service_accounts.map((s: { pk: number }) => s.pk)).toContain(made.body.pk);
    await login(file.server.url, { api_key: backend.body.api_key });
  });

  it("POST /api/users with user_type user (developer token) only invites: no account, no key, no team change, the same 202 for known and unknown e-mails", async () => {
    const attacker = await createTeamFixture(file.server);
    const victim = await createTeamFixture(file.server);
    const victimEmail = `dev-${victim.teamName}@example.com`;
    const unknownEmail = `newhire-${Date.now()}@b.example`;
    const users = async () => (await rawSql(file.server.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM users"))[0]!.n as number;
    const before = await users();

    const unknown = await api(file.server.url, "POST", "/api/users", {
      token: attacker.developerToken,
      body: { name: "Pre-registered", email: unknownEmail.toUpperCase(), user_type: "user" },
    });
    const known = await api(file.server.url, "POST", "/api/users", {
      token: attacker.developerToken,
      body: { name: "Victim", email: victimEmail, user_type: "user" },
    });
    // Known and unknown e-mails answer alike, and no key is handed to anyone.
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(unknown.body).toEqual({ email: unknownEmail, invited: true });
    expect(known.body).toEqual({ email: victimEmail, invited: true });
    expect(JSON.stringify([unknown.body, known.body])).not.toContain("hoot_dev_dk_");
    // Asking again answers the same too.
    expect((await api(file.server.url, "POST", "/api/users", { token: attacker.developerToken, body: { name: "x", email: victimEmail } })).status).toBe(202);

    // No account was made for the unknown e-mail: there is no key that could later log into another team.
    expect(await users()).toBe(before);
    // Only pending invitations were written.
    const invitations = await rawSql(file.server.deps.database, "SELECT email FROM console_invitations WHERE team_id = ? ORDER BY id", attacker.teamId);
    expect(invitations.map((i) => i.email)).toEqual([unknownEmail, victimEmail]);

    // The existing developer was not pushed into the attacker's team: their login and raw-key calls still work.
    const victimLogin = await api(file.server.url, "POST", "/api/auth/login", { body: { api_key: victim.developerKey } });
    expect(victimLogin.status).toBe(200);
    const me = await api(file.server.url, "GET", "/api/users/me", { token: victimLogin.body.access_token });
    expect(me.body.teams).toEqual([{ pk: victim.teamId, name: victim.teamName }]);
    expect((await api(file.server.url, "POST", "/api/players", { token: victim.developerKey, body: { external_id: `after-${Date.now()}` } })).status).toBe(201);
    expect((await api(file.server.url, "POST", "/api/auth/login", { body: { api_key: victim.developerKey, team_name: attacker.teamName } })).status).toBe(401);
  });

  it("refuses bad POST /api/users bodies with 400 and a taken service account name with 409, writing nothing", async () => {
    const fixture = await createTeamFixture(file.server);
    const token = fixture.developerToken;
    const count = async () =>
      (await rawSql(file.server.deps.database, "SELECT CAST((SELECT count(*) FROM users) + (SELECT count(*) FROM service_accounts) AS INTEGER) AS n"))[0]!
        .n as number;
    const before = await count();
    for (const body of [
      { name: "no-email", user_type: "user" },
      { name: "x", email: "not-an-email" },
      { name: "", user_type: "playerLogin" },
      { name: "x", user_type: "admin" },
      { name: "x", user_type: "playerLogin", team: 1 },
    ]) {
      const res = await api(file.server.url, "POST", "/api/users", { token, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const taken = await api(file.server.url, "POST", "/api/users", { token, body: { name: "app", user_type: "playerLogin" } });
    expect(taken.status).toBe(409);
    expect(await count()).toBe(before);
    const service = await login(file.server.url, { api_key: fixture.backendKey });
    expect((await api(file.server.url, "POST", "/api/users", { token: service.access_token, body: { name: "z", user_type: "playerLogin" } })).status).toBe(403);
  });
});

describe("PATCH and DELETE /api/users/me", () => {
  it("renames the caller; a null or empty name changes nothing; a wrong type is 400", async () => {
    const fixture = await createTeamFixture(file.server);
    const token = fixture.developerToken;
    const renamed = await api(file.server.url, "PATCH", "/api/users/me", { token, body: { name: "  Ada L.  " } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Ada L.", api_key: fixture.developerKey });
    for (const body of [{ name: null }, { name: "" }, {}])
      expect((await api(file.server.url, "PATCH", "/api/users/me", { token, body })).body.name).toBe("Ada L.");
    expect((await api(file.server.url, "PATCH", "/api/users/me", { token, body: { name: 7 } })).status).toBe(400);
    expect((await api(file.server.url, "PATCH", "/api/users/me", { token, body: { email: "x@y.z" } })).status).toBe(400);
  });

  it("refuses DELETE /api/users/me with 403 permission_denied unless the server allows self-deletion", async () => {
    const fixture = await createTeamFixture(file.server);
    const res = await api(file.server.url, "DELETE", "/api/users/me", { token: fixture.developerToken });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("permission_denied");
    expect((await api(file.server.url, "GET", "/api/users/me", { token: fixture.developerToken })).status).toBe(200);

    const allowing = await startTestServer({ HOOT_ALLOW_SELF_DELETE: "true" });
    try {
      const mine = await createTeamFixture(allowing);
      expect((await api(allowing.url, "DELETE", "/api/users/me", { token: mine.developerToken })).status).toBe(204);
      expect((await api(allowing.url, "GET", "/api/users/me", { token: mine.developerToken })).status).toBe(401);
      expect((await api(allowing.url, "POST", "/api/auth/login", { body: { api_key: mine.developerKey } })).status).toBe(401);
    } finally {
      await allowing.close();
    }
  });
});

describe("Cache-Control on answers that carry secrets", () => {
  it("is no-store on users/me, player and service-account lists and creation", async () => {
    const fixture = await createTeamFixture(file.server);
    const token = fixture.developerToken;
    const player = await api(file.server.url, "POST", "/api/players", { token, body: { external_id: "cache-kid" } });
    const answers = [
      await api(file.server.url, "GET", "/api/users/me", { token }),
      await api(file.server.url, "PATCH", "/api/users/me", { token, body: { name: "N" } }),
      await api(file.server.url, "GET", "/api/players", { token }),
      player,
      await api(file.server.url, "GET", `/api/players/${player.body.pk}`, { token }),
      await api(file.server.url, "GET", "/api/service-accounts", { token }),
      await api(file.server.url, "POST", "/api/service-accounts", { token, body: { name: "cache-sa" } }),
      await api(file.server.url, "GET", "/api/users/service_accounts", { token }),
      await api(file.server.url, "POST", "/api/users", { token, body: { name: "cache-sdk", user_type: "playerLogin" } }),
      await api(file.server.url, "POST", "/api/players", { token: fixture.developerKey, body: { external_id: "cache-kid-2" } }),
    ];
    for (const res of answers) expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

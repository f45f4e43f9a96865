import { describe, expect, it } from "bun:test";
import { generateKey } from "../../src/auth/keys.ts";
import { addTeamMember, createTeam } from "../../src/teams/service.ts";
import { api, createPlayer, createTeamFixture, serverForFile, startTestServer } from "../helpers/server.ts";

const file = serverForFile();

const loginWith = (body: unknown) => api(file.server.url, "POST", "/api/auth/login", { body });

describe("POST /api/auth/login", () => {
  it("gives a developer token for a developer key", async () => {
    const res = await loginWith({ api_key: file.team.developerKey });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe("Bearer");
    expect(res.body.expires_in).toBe(3600);
    expect(typeof res.body.access_token).toBe("string");
    const me = await api(file.server.url, "GET", "/api/users/me", { token: res.body.access_token });
    expect(me.status).toBe(200);
  });

  it("accepts team_name for a developer's own team and refuses another team's name with 401", async () => {
    expect((await loginWith({ api_key: file.team.developerKey, team_name: file.team.teamName })).status).toBe(200);
    const other = await createTeamFixture(file.server);
    const res = await loginWith({ api_key: file.team.developerKey, team_name: other.teamName });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthorized");
  });

  it("asks a developer in several teams to name one, then scopes the token to it", async () => {
    const second = `second-${Date.now()}`;
    await createTeam(file.server.deps, second);
    const multi = await createTeamFixture(file.server);
    await addTeamMember(file.server.deps, second, `dev-${multi.teamName}@example.com`);
    const res = await loginWith({ api_key: multi.developerKey });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("team_name_required");
    const scoped = await loginWith({ api_key: multi.developerKey, team_name: second });
    expect(scoped.status).toBe(200);
    const list = await api(file.server.url, "GET", "/api/players/", { token: scoped.body.access_token });
    expect(list.body.players).toEqual([]);
  });

  it("gives a service token only to a playerCreate key", async () => {
    const ok = await loginWith({ api_key: file.team.backendKey });
    expect(ok.status).toBe(200);
    const created = await api(file.server.url, "POST", "/api/players", { token: ok.body.access_token, body: { external_id: "via-service" } });
    expect(created.status).toBe(201);
    const denied = await loginWith({ api_key: file.team.publicKey });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("permission_denied");
  });

  it("gives a player token for a service key plus the player's federated id", async () => {
    const player = await createPlayer(file.server, file.team);
    expect(player.token.split(".")).toHaveLength(3);
    // A player token reaches nothing over HTTP.
    for (const [method, path] of [
      ["GET", "/api/users/me"],
      ["GET", "/api/players/"],
      ["GET", `/api/players/${player.pk}`],
      ["GET", "/api/teams"],
    ] as const) {
      const res = await api(file.server.url, method, path, { token: player.token });
      expect(res.status).toBe(403);
    }
  });

  it("refuses a player of another team with 401", async () => {
    const other = await createTeamFixture(file.server);
    const player = await createPlayer(file.server, other);
    const res = await loginWith({ api_key: file.team.publicKey, federated_id: player.federatedId });
    expect(res.status).toBe(401);
  });

  it("answers the same 401 for unknown, malformed and mistyped keys", async () => {
    const unknown = generateKey("dk", "dev");
    const mistyped = file.team.developerKey.slice(0, -1) + (file.team.developerKey.endsWith("A") ? "B" : "A");
    const bodies = [
      { api_key: unknown },
      { api_key: "nonsense" },
      { api_key: mistyped },
      { api_key: file.team.publicKey, federated_id: generateKey("fid", "dev") },
    ];
    const answers = await Promise.all(bodies.map(loginWith));
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Authentication failed: the credential is missing, invalid, expired or revoked.", code: "unauthorized" });
    }
  });

  it("refuses a key of another environment with a message naming it", async () => {
    const res = await loginWith({ api_key: generateKey("dk", "production") });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("wrong_environment");
    expect(res.body.error).toContain('"production"');
  });

  it("refuses unknown fields, wrong types, malformed JSON and non-JSON bodies", async () => {
    const extra = await loginWith({ api_key: file.team.developerKey, admin: true });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toContain('"admin"');
    expect((await loginWith({ api_key: 42 })).status).toBe(400);
    // A body without a usable api_key is a credential that does not authenticate: 401, not 400 (issue 8).
    expect((await loginWith({})).status).toBe(401);
    const bad = await api(file.server.url, "POST", "/api/auth/login", { body: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_json");
    const form = await api(file.server.url, "POST", "/api/auth/login", { body: "api_key=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
  });
});

describe("login failure limits", () => {
  it("counts failed player logins per federated id, so the public app key cannot be used to lock players out", async () => {
    const limited = await startTestServer({ HOOT_LOGIN_FAILURES_PER_MINUTE: "5", HOOT_TRUST_PROXY: "true" });
    try {
      const fixture = await createTeamFixture(limited);
      const player = await createPlayer(limited, fixture);
      for (let i = 0; i < 8; i++) {
        // Spoofed left-most entries are ignored: the last entry is the address the proxy saw.
        const res = await api(limited.url, "POST", "/api/auth/login", {
          body: { api_key: fixture.publicKey, federated_id: generateKey("fid", "dev") },
          headers: { "x-forwarded-for": `6.6.6.${i}, 10.0.0.${i}` },
        });
        expect(res.status).toBe(401);
      }
      const ok = await api(limited.url, "POST", "/api/auth/login", {
        body: { api_key: fixture.publicKey, federated_id: player.federatedId },
        headers: { "x-forwarded-for": "10.1.1.1" },
      });
      expect(ok.status).toBe(200);
      // The same address failing again and again is limited for failing credentials only.
      for (let i = 0; i < 5; i++)
        await api(limited.url, "POST", "/api/auth/login", { body: { api_key: generateKey("dk", "dev") }, headers: { "x-forwarded-for": "1.2.3.4, 10.9.9.9" } });
      const blocked = await api(limited.url, "POST", "/api/auth/login", {
        body: { api_key: generateKey("dk", "dev") },
        headers: { "x-forwarded-for": "5.5.5.5, 10.9.9.9" },
      });
      expect(blocked.status).toBe(429);
      const good = await api(limited.url, "POST", "/api/auth/login", {
        body: { api_key: fixture.developerKey },
        headers: { "x-forwarded-for": "5.5.5.5, 10.9.9.9" },
      });
      expect(good.status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("accepts a raw developer key as the bearer value only for creating players, and limits its failures, never a good key", async () => {
    const limited = await startTestServer({ HOOT_LOGIN_FAILURES_PER_MINUTE: "3" });
    try {
      const fixture = await createTeamFixture(limited);
      expect((await api(limited.url, "GET", "/api/users/me", { token: fixture.developerKey })).status).toBe(401);
      expect((await api(limited.url, "POST", "/api/players", { token: fixture.developerKey, body: { external_id: "raw" } })).status).toBe(201);
      for (let i = 0; i < 3; i++) {
        expect((await api(limited.url, "POST", "/api/players", { token: generateKey("dk", "dev"), body: { external_id: `x${i}` } })).status).toBe(401);
      }
      expect((await api(limited.url, "POST", "/api/players", { token: generateKey("dk", "dev"), body: { external_id: "late" } })).status).toBe(429);
      // Others behind the same address (a proxy) keep working with keys that check out.
      expect((await api(limited.url, "POST", "/api/players", { token: fixture.developerKey, body: { external_id: "late" } })).status).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it("answers failing credentials 429 with Retry-After after 10 failures from one address, and still lets every good key in", async () => {
    const limited = await startTestServer({ HOOT_LOGIN_FAILURES_PER_MINUTE: "10" });
    try {
      const fixture = await createTeamFixture(limited);
      const player = await createPlayer(limited, fixture);
      for (let i = 0; i < 10; i++) {
        const res = await api(limited.url, "POST", "/api/auth/login", { body: { api_key: generateKey("dk", "dev") } });
        expect(res.status).toBe(401);
      }
      const blocked = await api(limited.url, "POST", "/api/auth/login", { body: { api_key: generateKey("dk", "dev") } });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(blocked.body.code).toBe("too_many_requests");
      // Behind a proxy without HOOT_TRUST_PROXY every client has this address: good credentials still work.
      expect((await api(limited.url, "POST", "/api/auth/login", { body: { api_key: fixture.developerKey } })).status).toBe(200);
      expect((await api(limited.url, "POST", "/api/auth/login", { body: { api_key: fixture.backendKey } })).status).toBe(200);
      expect((await api(limited.url, "POST", "/api/auth/login", { body: { api_key: fixture.publicKey, federated_id: player.federatedId } })).status).toBe(200);
      const failures = limited.logs.filter((l) => l.includes('"login_failed"'));
      expect(failures).toHaveLength(10);
      const metrics = await (await fetch(`${limited.url}/metrics`)).text();
      expect(metrics).toMatch(/hoot_auth_failures_total\{reason="unauthorized"\} 10/);
    } finally {
      await limited.close();
    }
  });
});

describe("login failure limits per credential", () => {
  it("keep refusing a federated id and a developer key over their own limit, even when the credential checks out", async () => {
    // Each request from its own address (through a trusted proxy), so only the credentials' buckets fill.
    const limited = await startTestServer({ HOOT_LOGIN_FAILURES_PER_MINUTE: "3", HOOT_TRUST_PROXY: "true" });
    let n = 0;
    const post = (body: Record<string, string>) => api(limited.url, "POST", "/api/auth/login", { body, headers: { "x-forwarded-for": `10.0.0.${++n}` } });
    try {
      const fixture = await createTeamFixture(limited);
      const other = await createTeamFixture(limited);
      const player = await createPlayer(limited, fixture);
      // Another team's app key with this player's federated id: a failure counted against the federated id.
      for (let i = 0; i < 3; i++) expect((await post({ api_key: other.publicKey, federated_id: player.federatedId })).status).toBe(401);
      expect((await post({ api_key: fixture.publicKey, federated_id: player.federatedId })).status).toBe(429);
      // A developer key named with a team it is not in, three times: the key's own bucket is full.
      for (let i = 0; i < 3; i++) expect((await post({ api_key: other.developerKey, team_name: fixture.teamName })).status).toBe(401);
      expect((await post({ api_key: other.developerKey })).status).toBe(429);
      // Other credentials are not affected.
      expect((await post({ api_key: fixture.developerKey })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("warns once when requests carry X-Forwarded-For while HOOT_TRUST_PROXY is off", async () => {
    const server = await startTestServer();
    try {
      const fixture = await createTeamFixture(server);
      for (let i = 0; i < 3; i++) {
        await api(server.url, "POST", "/api/auth/login", { body: { api_key: fixture.developerKey }, headers: { "x-forwarded-for": `203.0.113.${i}` } });
      }
      const warnings = server.logs.filter((l) => l.includes('"forwarded_for_ignored"'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("HOOT_TRUST_PROXY");
      expect(warnings[0]).not.toContain("203.0.113");
    } finally {
      await server.close();
    }
  });
});

describe("login bodies as the hosted engine's SDKs send them", () => {
  const UNAUTHORIZED = { error: "Authentication failed: the credential is missing, invalid, expired or revoked.", code: "unauthorized" };

  it('treats null and "" as absent for every field', async () => {
    const player = await createPlayer(file.server, file.team);
    for (const body of [
      { api_key: file.team.developerKey, team_name: null, federated_id: null },
      { api_key: file.team.developerKey, team_name: "", federated_id: "" },
      { api_key: file.team.backendKey, team_name: null, federated_id: null },
      { api_key: file.team.publicKey, team_name: "", federated_id: player.federatedId },
      { api_key: file.team.publicKey, team_name: null, federated_id: player.federatedId },
    ]) {
      const res = await loginWith(body);
      expect({ body, status: res.status }).toEqual({ body, status: 200 });
    }
  });

  it("ignores any Authorization header on login", async () => {
    const other = await createTeamFixture(file.server);
    for (const authorization of ["Bearer", "Bearer ", "Bearer undefined", `Bearer ${other.developerToken}`, "Basic Zm9vOmJhcg=="]) {
      const res = await api(file.server.url, "POST", "/api/auth/login", { body: { api_key: file.team.developerKey }, headers: { authorization } });
      expect(res.status).toBe(200);
      // The token is the body's developer's, whatever the header said.
      const me = await api(file.server.url, "GET", "/api/users/me", { token: res.body.access_token });
      expect(me.body.api_key).toBe(file.team.developerKey);
    }
  });

  it("answers the one 401 body for every credential that does not authenticate, whatever the body's shape", async () => {
    const bodies = [
      {},
      { api_key: null },
      { api_key: "" },
      { api_key: "x".repeat(5000) },
      { api_key: file.team.developerKey, federated_id: generateKey("fid", "dev") },
      { api_key: file.team.developerKey, team_name: "no-such-team" },
      { team_name: file.team.teamName },
      { federated_id: generateKey("fid", "dev") },
      { api_key: file.team.publicKey, federated_id: "not-a-federated-id" },
    ];
    for (const body of bodies) {
      const res = await loginWith(body);
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 401, answer: UNAUTHORIZED });
    }
  });

  it("answers 400 only for a body that is not a JSON object, a field of the wrong type or an unknown field", async () => {
    for (const body of ["[]", '"api_key"', "42", "null", "true"]) {
      const res = await api(file.server.url, "POST", "/api/auth/login", { body, headers: { "content-type": "application/json" } });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    for (const body of [
      { api_key: 42 },
      { api_key: file.team.developerKey, team_name: 5 },
      { api_key: file.team.publicKey, federated_id: {} },
      { api_key: ["k"] },
    ]) {
      const res = await loginWith(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
  });

  it("marks every login answer Cache-Control: no-store", async () => {
    for (const body of [{ api_key: file.team.developerKey }, { api_key: generateKey("dk", "dev") }]) {
      expect((await loginWith(body)).headers.get("cache-control")).toBe("no-store");
    }
  });
});

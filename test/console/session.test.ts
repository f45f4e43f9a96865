/**
 * The console without single sign-on (local use): API-key sign-in, the session cookie, its lifetimes, sign-out,
 * key rotation, cross-site and cross-team refusals, and the console API over the real services.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from "bun:test";
import { createTeam } from "../../src/teams/service.ts";
import { createDeveloper } from "../../src/users/service.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { api, createPlayer, createTeamFixture, login, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { WsProbe } from "../helpers/ws.ts";
import { ConsoleBrowser, rows } from "./helpers/console.ts";

// Real servers, a real identity provider and (for the browser file) Chromium: slow machines need room.
setDefaultTimeout(30_000);

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;

beforeAll(async () => {
  server = await startTestServer();
  team = await createTeamFixture(server);
  other = await createTeamFixture(server);
});
afterAll(() => server.close());

async function signedIn(fixture = team): Promise<ConsoleBrowser> {
  const browser = new ConsoleBrowser(server);
  await browser.signInWithKey(fixture.developerKey);
  return browser;
}

const sessionCount = async () => Number((await rows(server, "SELECT CAST(count(*) AS INTEGER) AS n FROM console_sessions"))[0]!.n);

describe("API-key sign-in", () => {
  it("offers the key form when no identity provider is configured", async () => {
    const res = await new ConsoleBrowser(server).api("GET", "/sign-in-options");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ single_sign_on: false, provider_name: null });
  });

  it("answers the session and an HttpOnly, SameSite=Lax cookie whose value is stored only as a hash", async () => {
    const browser = new ConsoleBrowser(server);
    const res = await browser.signInWithKey(team.developerKey);
    expect(res.body).toEqual({
      user: { pk: expect.any(Number), name: `Dev ${team.teamName}`, email: `dev-${team.teamName}@example.com` },
      team: { pk: team.teamId, name: team.teamName },
      teams: [{ pk: team.teamId, name: team.teamName }],
      csrf_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      method: "api_key",
    });
    const [cookie] = res.headers.getSetCookie();
    // Plain http: no Secure flag, so no __Host- prefix (browsers refuse both without https).
    expect(cookie).toMatch(/^hoot_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    const token = cookie!.split(";")[0]!.split("=")[1]!;
    const stored = await rows(server, "SELECT token_hash FROM console_sessions WHERE token_hash = ?", server.deps.secrets.lookupHash(token));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(await rows(server, "SELECT * FROM console_sessions"))).not.toContain(token);
    expect((await browser.session()).body.user.email).toBe(`dev-${team.teamName}@example.com`);
    expect(server.logs.join("\n")).not.toContain(token);
    expect(server.logs.join("\n")).not.toContain(team.developerKey);
  });

  it("a second sign-in in the same browser replaces its session instead of adding one", async () => {
    const browser = await signedIn();
    const first = browser.cookie;
    const before = await sessionCount();
    await browser.signInWithKey(team.developerKey);
    expect(browser.cookie).not.toBe(first);
    expect(await sessionCount()).toBe(before);
    const old = new ConsoleBrowser(server);
    old.cookie = first;
    expect((await old.session()).status).toBe(401);
  });

  it("refuses a wrong key with 401 and writes no session", async () => {
    const before = await sessionCount();
    const res = await new ConsoleBrowser(server).api("POST", "/session", {
      api_key: team.developerKey.slice(0, -1) + (team.developerKey.endsWith("A") ? "B" : "A"),
    });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await sessionCount()).toBe(before);
  });

  it("refuses a service-account key (only developers sign in to the console)", async () => {
    const res = await new ConsoleBrowser(server).api("POST", "/session", { api_key: team.backendKey });
    expect(res.status).toBe(401);
  });

  it("refuses a sign-in posted from another origin", async () => {
    const before = await sessionCount();
    const res = await new ConsoleBrowser(server, "https://evil.example").api("POST", "/session", { api_key: team.developerKey });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("cross_site_refused");
    expect(await sessionCount()).toBe(before);
  });

  it("signs a developer of several teams in to their first team, and lets them switch", async () => {
    const second = await createTeam(server.deps, `second-${Date.now()}`);
    const dev = await createDeveloper(server.deps, { teamName: second.name, email: `dev-${team.teamName}@example.com`, name: "ignored" });
    expect(dev.apiKey).toBeNull();
    const browser = await signedIn();
    expect(browser.csrf).not.toBe("");
    const start = await browser.session();
    expect(start.body.team.pk).toBe(team.teamId);
    expect(start.body.teams.map((t: { pk: number }) => t.pk)).toEqual([team.teamId, second.id]);
    const switched = await browser.api("PUT", "/session/team", { team_pk: second.id });
    expect(switched.status).toBe(200);
    expect(switched.body.team).toEqual({ pk: second.id, name: second.name });
    expect((await browser.api("GET", "/service-accounts")).body.service_accounts).toEqual([]);
    // Naming the team at sign-in starts there.
    const named = new ConsoleBrowser(server);
    expect((await named.signInWithKey(team.developerKey, second.name)).body.team.pk).toBe(second.id);
    // A team they are not in is not found.
    expect((await browser.api("PUT", "/session/team", { team_pk: other.teamId })).status).toBe(404);
    expect((await browser.session()).body.team.pk).toBe(second.id);
  });
});

describe("sessions end", () => {
  it("at sign-out: 204, the cookie is cleared, the row is deleted and the old cookie is refused", async () => {
    const browser = await signedIn();
    const cookie = browser.cookie;
    const res = await browser.api("DELETE", "/session");
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie()[0]).toMatch(/^hoot_console=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/);
    const replay = new ConsoleBrowser(server);
    replay.cookie = cookie;
    expect((await replay.session()).status).toBe(401);
    expect((await replay.session()).body.code).toBe("unauthorized");
  });

  it("when the developer key is rotated through the API or the admin tools", async () => {
    const fixture = await createTeamFixture(server);
    const browser = await signedIn(fixture);
    expect((await browser.session()).status).toBe(200);
    const rotated = await api(server.url, "POST", "/api/users/me/api-key", { token: fixture.developerToken });
    expect(rotated.status).toBe(200);
    expect((await browser.session()).status).toBe(401);
    expect((await browser.api("POST", "/service-accounts", { name: "after-rotation" })).status).toBe(401);
    expect(await rows(server, "SELECT name FROM service_accounts WHERE team_id = ? AND name = 'after-rotation'", fixture.teamId)).toEqual([]);
  });

  it("rotating from the console keeps that session, ends the others, and the old key stops working", async () => {
    const fixture = await createTeamFixture(server);
    const mine = await signedIn(fixture);
    const elsewhere = await signedIn(fixture);
    const res = await mine.api("POST", "/key/rotate");
    expect(res.status).toBe(200);
    expect(res.body.api_key).toMatch(/^hoot_dev_dk_/);
    expect(res.body.api_key).not.toBe(fixture.developerKey);
    expect((await mine.session()).status).toBe(200);
    expect((await mine.api("GET", "/key")).body.api_key).toBe(res.body.api_key);
    expect((await elsewhere.session()).status).toBe(401);
    expect((await api(server.url, "POST", "/api/auth/login", { body: { api_key: fixture.developerKey } })).status).toBe(401);
    expect((await login(server.url, { api_key: res.body.api_key })).access_token).toBeString();
  });

  it("after the idle lifetime and after the absolute lifetime", async () => {
    const idle = await signedIn();
    const absolute = await signedIn();
    const hashOf = (b: ConsoleBrowser) => server.deps.secrets.lookupHash(b.cookie.split("=")[1]!);
    await rows(server, "UPDATE console_sessions SET last_seen_at = ? WHERE token_hash = ?", Date.now() - 121 * 60_000, hashOf(idle));
    await rows(server, "UPDATE console_sessions SET expires_at = ? WHERE token_hash = ?", Date.now() - 1, hashOf(absolute));
    expect((await idle.session()).status).toBe(401);
    expect((await absolute.session()).status).toBe(401);
    expect(await rows(server, "SELECT id FROM console_sessions WHERE token_hash IN (?, ?)", hashOf(idle), hashOf(absolute))).toEqual([]);
  });

  it("when the developer is removed from the session's team", async () => {
    const fixture = await createTeamFixture(server);
    const browser = await signedIn(fixture);
    await rows(server, "DELETE FROM team_members WHERE team_id = ?", fixture.teamId);
    expect((await browser.session()).status).toBe(401);
  });

  it("refuses a made-up or oversized cookie", async () => {
    const browser = new ConsoleBrowser(server);
    browser.cookie = `hoot_console=${"A".repeat(43)}`;
    expect((await browser.session()).status).toBe(401);
    browser.cookie = `hoot_console=${"A".repeat(5000)}`;
    expect((await browser.session()).status).toBe(401);
  });
});

describe("cross-site requests are refused", () => {
  const attempts: [string, { origin?: string | null; csrf?: string | null; headers?: Record<string, string> }][] = [
    ["from another origin", { origin: "https://evil.example" }],
    ["from another port of the same host (same site, other origin)", { origin: "http://127.0.0.1:1" }],
    ["that the browser marks cross-site", { headers: { "sec-fetch-site": "cross-site" } }],
    ["without the CSRF token", { csrf: null }],
    ["with another session's CSRF token", { csrf: "0".repeat(64) }],
  ];
  for (const [what, options] of attempts) {
    it(`a request ${what}: 403, nothing written`, async () => {
      const browser = await signedIn();
      const name = `csrf-${Math.random().toString(36).slice(2)}`;
      const res = await browser.api("POST", "/service-accounts", { name }, options);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "This request did not come from the console's own page and was refused.", code: "cross_site_refused" });
      expect(await rows(server, "SELECT id FROM service_accounts WHERE name = ?", name)).toEqual([]);
      // Sign-out is a change too.
      expect((await browser.api("DELETE", "/session", undefined, options)).status).toBe(403);
      expect((await browser.session()).status).toBe(200);
    });
  }

  it("the same request from the console's own page goes through", async () => {
    const browser = await signedIn();
    const res = await browser.api("POST", "/service-accounts", { name: `ok-${Date.now()}` }, { headers: { "sec-fetch-site": "same-origin" } });
    expect(res.status).toBe(201);
  });
});

describe("cross-team attempts are refused as not found", () => {
  it("another team's service account, player, invitation and player token", async () => {
    const browser = await signedIn(team);
    const theirPlayer = await createPlayer(server, other);
    const theirs = new ConsoleBrowser(server);
    await theirs.signInWithKey(other.developerKey);
    const invite = await theirs.api("POST", "/invitations", { email: `friend-${Date.now()}@example.com` });
    expect(invite.status).toBe(201);

    expect((await browser.api("DELETE", `/service-accounts/${other.publicKeyPk}`)).status).toBe(404);
    expect(await rows(server, "SELECT id FROM service_accounts WHERE id = ?", other.publicKeyPk)).toHaveLength(1);
    expect((await browser.api("DELETE", `/players/${theirPlayer.pk}`)).status).toBe(404);
    expect((await browser.api("POST", `/players/${theirPlayer.pk}/reset-federated-id`)).status).toBe(404);
    expect((await browser.api("POST", `/players/${theirPlayer.pk}/token`)).status).toBe(404);
    expect((await browser.api("GET", `/players/${theirPlayer.pk}`)).status).toBe(404);
    expect((await browser.api("GET", `/players/${theirPlayer.pk}/data`)).status).toBe(404);
    expect((await browser.api("DELETE", `/players/${theirPlayer.pk}/history`)).status).toBe(404);
    expect((await browser.api("GET", `/players/${theirPlayer.pk}/audit`)).body).toEqual({ audit: [], next: null });
    expect(await rows(server, "SELECT id FROM players WHERE id = ?", theirPlayer.pk)).toHaveLength(1);
    expect((await browser.api("DELETE", `/invitations/${invite.body.pk}`)).status).toBe(404);
    expect(await rows(server, "SELECT id FROM console_invitations WHERE id = ?", invite.body.pk)).toHaveLength(1);
    const listed = (await browser.api("GET", "/players?limit=100")).body.players.map((p: { pk: number }) => p.pk);
    expect(listed).not.toContain(theirPlayer.pk);
    expect((await browser.api("GET", "/service-accounts")).body.service_accounts.map((s: { pk: number }) => s.pk)).not.toContain(other.publicKeyPk);
  });
});

describe("the console API, through the same services as the HTTP API", () => {
  it("reveals the developer key only on request, with no-store", async () => {
    const browser = await signedIn();
    expect(JSON.stringify((await browser.session()).body)).not.toContain(team.developerKey);
    const res = await browser.api("GET", "/key");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ api_key: team.developerKey });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("creates, lists and deletes service-account keys; a playerCreate key is masked after creation", async () => {
    const fixture = await createTeamFixture(server);
    const browser = await signedIn(fixture);
    const made = await browser.api("POST", "/service-accounts", { name: "ios", player_create: false });
    expect(made.status).toBe(201);
    const madeKey: string = made.body.api_key;
    expect(madeKey).toMatch(/^hoot_dev_sk_/);
    expect(made.body.name).toBe("ios");
    expect(made.body.permissions).toEqual(["playerLogin"]);
    const backend = await browser.api("POST", "/service-accounts", { name: "backend-2", player_create: true });
    expect(backend.body.permissions).toEqual(["playerLogin", "playerCreate"]);
    expect((await login(server.url, { api_key: backend.body.api_key })).access_token).toBeString();
    const listed = (await browser.api("GET", "/service-accounts")).body.service_accounts;
    expect(listed.find((k: { pk: number }) => k.pk === made.body.pk).api_key).toBe(madeKey);
    expect(listed.find((k: { pk: number }) => k.pk === backend.body.pk).api_key).toContain("…");
    expect((await browser.api("POST", "/service-accounts", { name: "ios" })).status).toBe(409);
    expect((await browser.api("DELETE", `/service-accounts/${made.body.pk}`)).status).toBe(204);
    expect((await api(server.url, "POST", "/api/auth/login", { body: { api_key: madeKey, federated_id: "hoot_dev_fid_x" } })).status).toBe(401);
    expect((await browser.api("POST", "/service-accounts", { name: "" })).status).toBe(400);
  });

  it("creates a test player, pages through players with their external ids, resets and deletes", async () => {
    const fixture = await createTeamFixture(server);
    const browser = await signedIn(fixture);
    const made = await browser.api("POST", "/players", {});
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      pk: expect.any(Number),
      external_id: expect.stringMatching(/^test-/),
      federated_id: expect.stringMatching(/^hoot_dev_fid_/),
      consent: "none",
      consent_updated_at: null,
    });
    const named = await browser.api("POST", "/players", { external_id: "mia" });
    expect((await browser.api("POST", "/players", { external_id: "mia" })).status).toBe(409);
    const first = await browser.api("GET", "/players?limit=1");
    expect(first.body.players).toEqual([made.body]);
    const second = await browser.api("GET", `/players?limit=1&after=${first.body.next}`);
    expect(second.body.players).toEqual([named.body]);
    expect(second.body.next).toBeNull();
    // The player logs in with the federated id the console showed.
    expect((await login(server.url, { api_key: fixture.publicKey, federated_id: named.body.federated_id })).access_token).toBeString();
    const reset = await browser.api("POST", `/players/${named.body.pk}/reset-federated-id`);
    expect(reset.body.federated_id).not.toBe(named.body.federated_id);
    expect((await api(server.url, "POST", "/api/auth/login", { body: { api_key: fixture.publicKey, federated_id: named.body.federated_id } })).status).toBe(
      401,
    );
    expect((await browser.api("DELETE", `/players/${named.body.pk}`)).status).toBe(204);
    expect(await rows(server, "SELECT id FROM players WHERE id = ?", named.body.pk)).toEqual([]);
  });

  it("gives the playground a player token made with the team's login-only key, creating one when the team has none", async () => {
    const teamName = `bare-${Date.now()}`;
    const bare = await createTeam(server.deps, teamName);
    const dev = await createDeveloper(server.deps, { teamName, email: `${teamName}@example.com`, name: "Bare" });
    const browser = await signedIn({ ...team, developerKey: dev.apiKey! });
    const player = (await browser.api("POST", "/players", {})).body;
    const first = await browser.api("POST", `/players/${player.pk}/token`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ access_token: expect.any(String), expires_in: 3600, created_key: true });
    const keys = (await browser.api("GET", "/service-accounts")).body.service_accounts;
    expect(keys.map((k: { name: string; permissions: string[] }) => [k.name, k.permissions])).toEqual([["console playground", ["playerLogin"]]]);
    expect((await browser.api("POST", `/players/${player.pk}/token`)).body.created_key).toBe(false);
    expect(await rows(server, "SELECT id FROM service_accounts WHERE team_id = ?", bare.id)).toHaveLength(1);

    const probe = await WsProbe.open(server.url);
    probe.send({ type: "request", kind: "authenticate", uid: "a1", access_token: first.body.access_token });
    expect((await probe.next((m) => m.uid === "a1")).kind).toBe("authenticate");
    probe.ws.close();
  });

  it("invites e-mails to the team: lists, refuses duplicates and members, cancels", async () => {
    const browser = await signedIn();
    const email = `Kim-${Date.now()}@Example.com`;
    const made = await browser.api("POST", "/invitations", { email });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ pk: expect.any(Number), email: email.toLowerCase(), created_at: expect.any(String) });
    expect((await browser.api("POST", "/invitations", { email: email.toLowerCase() })).body.code).toBe("already_invited");
    expect((await browser.api("POST", "/invitations", { email: `dev-${team.teamName}@example.com` })).body.code).toBe("already_member");
    expect((await browser.api("POST", "/invitations", { email: "not an e-mail" })).status).toBe(400);
    expect((await browser.api("GET", "/invitations")).body.invitations.map((i: { email: string }) => i.email)).toContain(email.toLowerCase());
    expect((await browser.api("DELETE", `/invitations/${made.body.pk}`)).status).toBe(204);
    expect(await rows(server, "SELECT id FROM console_invitations WHERE id = ?", made.body.pk)).toEqual([]);
  });

  it("shows a developer the invitations for their e-mail; they join only by accepting, may decline, and may leave any team but their last", async () => {
    const mine = await createTeamFixture(server);
    const email = `dev-${mine.teamName}@example.com`;
    const browser = await signedIn(mine);
    const inviters = [await createTeam(server.deps, `inv-a-${Date.now()}`), await createTeam(server.deps, `inv-b-${Date.now()}`)];
    // Another team invites this developer (through the API, as a developer of that team would).
    const inviter = await createTeamFixture(server);
    expect((await api(server.url, "POST", "/api/users", { token: inviter.developerToken, body: { name: "x", email: email.toUpperCase() } })).status).toBe(202);
    for (const t of inviters) await rows(server, "INSERT INTO console_invitations (team_id, email) VALUES (?, ?)", t.id, email);
    const listed = (await browser.api("GET", "/my-invitations")).body.invitations;
    expect(listed.map((i: { team: { pk: number } }) => i.team.pk)).toEqual([inviter.teamId, ...inviters.map((t) => t.id)]);
    // Still in one team until they accept.
    expect((await browser.session()).body.teams).toEqual([{ pk: mine.teamId, name: mine.teamName }]);

    // Someone else cannot accept or decline this developer's invitation.
    const other = await signedIn(inviter);
    expect((await other.api("POST", `/my-invitations/${listed[0].pk}/accept`)).status).toBe(404);
    expect((await other.api("POST", `/my-invitations/${listed[0].pk}/decline`)).status).toBe(404);
    expect((await browser.api("POST", `/my-invitations/${listed[0].pk}/accept`, undefined, { csrf: null })).status).toBe(403);

    const accepted = await browser.api("POST", `/my-invitations/${listed[0].pk}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.teams.map((t: { pk: number }) => t.pk)).toEqual([mine.teamId, inviter.teamId]);
    expect((await browser.api("POST", `/my-invitations/${listed[1].pk}/decline`)).status).toBe(204);
    expect((await browser.api("POST", `/my-invitations/${listed[1].pk}/accept`)).status).toBe(404);
    expect((await browser.api("GET", "/my-invitations")).body.invitations.map((i: { pk: number }) => i.pk)).toEqual([listed[2].pk]);
    expect((await login(server.url, { api_key: mine.developerKey, team_name: inviter.teamName })).access_token).toBeString();

    // Leaving the team the session works in moves the session to the remaining team; the last team cannot be left.
    const left = await browser.api("POST", `/teams/${mine.teamId}/leave`);
    expect(left.status).toBe(200);
    expect(left.body.team).toEqual({ pk: inviter.teamId, name: inviter.teamName });
    expect(left.body.teams).toEqual([{ pk: inviter.teamId, name: inviter.teamName }]);
    expect((await api(server.url, "POST", "/api/auth/login", { body: { api_key: mine.developerKey, team_name: mine.teamName } })).status).toBe(401);
    const last = await browser.api("POST", `/teams/${inviter.teamId}/leave`);
    expect(last.status).toBe(409);
    expect(last.body.code).toBe("last_team");
    expect((await browser.api("POST", `/teams/${mine.teamId}/leave`)).status).toBe(404);
    expect((await browser.session()).status).toBe(200);
  });

  it("describes the playground's choices and the safety page through the same services as the API", async () => {
    const browser = await signedIn();
    const playground = await browser.api("GET", "/playground");
    expect(playground.status).toBe(200);
    expect(playground.body.voices).toContain("slt");
    expect(playground.body.policies.slice(0, 3)).toEqual(["default", "children_strict", "children_standard"]);
    expect(playground.body.default_prompt).toContain("Ollie");
    const safety = await browser.api("GET", "/safety");
    expect(safety.status).toBe(200);
    const listed = await api(server.url, "GET", "/api/policies", { token: team.developerToken });
    expect(safety.body.policies).toEqual(listed.body.policies);
    expect(Object.keys(safety.body).sort()).toEqual(["incidents", "policies", "team_policies"]);
    expect(safety.body.incidents).toBeArray();
  });

  it("creates and edits team policies, refusing a path name that is not a policy name", async () => {
    const fixture = await createTeamFixture(server);
    const browser = await signedIn(fixture);
    const created = await browser.api("POST", "/safety/policies", { name: "console-made", description: "Made in the console" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "console-made", description: "Made in the console", builtin: false, version: 1 });
    const edited = await browser.api("PUT", "/safety/policies/console-made", { description: "Edited", version: 1 });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: "console-made", description: "Edited", version: 2 });
    expect((await browser.api("PUT", "/safety/policies/console-made", { description: "Stale", version: 1 })).status).toBe(409);
    expect((await browser.api("POST", "/safety/policies", { name: "Bad Name!" })).body.code).toBe("invalid_policy");
    for (const name of ["UPPER", "-dash", "a%2Fb", "x".repeat(65)]) {
      const res = await browser.api("PUT", `/safety/policies/${name}`, { description: "x" });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
    }
    // `.` and `..` as sent on the wire (fetch would resolve them away first).
    for (const name of [".", ".."]) {
      const body = JSON.stringify({ description: "x" });
      const raw = await rawRequest(
        Number(new URL(server.url).port),
        `PUT /console/api/safety/policies/${name} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nOrigin: ${server.url}\r\nCookie: ${browser.cookie}\r\n` +
          `X-CSRF-Token: ${browser.csrf}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect({ name, status: raw.status }).toEqual({ name, status: 400 });
    }
    const viaApi = await api(server.url, "GET", "/api/safety-policies/console-made", { token: fixture.developerToken });
    expect(viaApi.body.description).toBe("Edited");
    expect((await browser.api("GET", "/safety")).body.team_policies.map((p: { name: string }) => p.name)).toEqual(["console-made"]);
    expect((await browser.api("GET", "/playground")).body.policies).toContain("console-made");
  });

  it("answers 401 to every console API route without a session", async () => {
    const anonymous = new ConsoleBrowser(server);
    for (const [method, path] of [
      ["GET", "/session"],
      ["GET", "/key"],
      ["GET", "/players"],
      ["GET", "/service-accounts"],
      ["GET", "/safety"],
      ["POST", "/players/1/token"],
    ] as const) {
      expect((await anonymous.api(method, path)).status).toBe(401);
    }
  });
});

describe("the Python SDK's single-sign-on routes without an issuer", () => {
  it("answer 404 sso_not_configured", async () => {
    for (const [path, body] of [
      ["/api/auth/login/google/app", { redirect_uri: "http://127.0.0.1:53121" }],
      ["/api/auth/login/google/authorize", { code: "c", state: "s" }],
    ] as const) {
      const res = await api(server.url, "POST", path, { body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.stringContaining("Single sign-on is not configured"), code: "sso_not_configured" });
    }
  });

  it("sends the browser to the API-key form instead of a provider", async () => {
    const res = await fetch(`${server.url}/console/auth/login`, { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console");
  });
});

describe("served over https (HOOT_PUBLIC_URL)", () => {
  let secure: TestServer;
  let fixture: TeamFixture;
  beforeAll(async () => {
    secure = await startTestServer({ HOOT_PUBLIC_URL: "https://hoot.example.com" });
    fixture = await createTeamFixture(secure);
  });
  afterAll(() => secure.close());

  it("uses a Secure __Host- cookie and checks the public origin", async () => {
    const browser = new ConsoleBrowser(secure, "https://hoot.example.com");
    const res = await browser.signInWithKey(fixture.developerKey);
    expect(res.headers.getSetCookie()[0]).toMatch(/^__Host-hoot_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/);
    expect((await browser.session()).status).toBe(200);
    // The origin the server was reached at is not the public one: refused.
    expect((await browser.api("POST", "/service-accounts", { name: "x" }, { origin: secure.url })).status).toBe(403);
    // A cookie without the prefix is not read.
    const plain = new ConsoleBrowser(secure, "https://hoot.example.com");
    plain.cookie = browser.cookie.replace("__Host-", "");
    expect((await plain.session()).status).toBe(401);
  });
});

/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider) on loopback: the console's browser
 * flow and the Python SDK's `login_with_google` routes, with refused, unverified and forged sign-ins.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from "bun:test";
import { MAX_PENDING } from "../../src/console/sign-in.ts";
import { createTeam } from "../../src/teams/service.ts";
import { rawSql } from "../helpers/database.ts";
import { api, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { ConsoleBrowser, rows } from "./helpers/console.ts";
import { signInAtIdp, ssoServerEnv, startIdp, type TestIdp } from "./helpers/idp.ts";

// Real servers, a real identity provider and (for the browser file) Chromium: slow machines need room.
setDefaultTimeout(30_000);

let idp: TestIdp;
let server: TestServer;
let team: TeamFixture;
let devEmail: string;

beforeAll(async () => {
  idp = await startIdp();
  // Every test here starts sign-ins from 127.0.0.1; the per-address limit has its own test and server.
  server = await startTestServer({ ...(await ssoServerEnv(idp)), HOOT_OIDC_PROVIDER_NAME: "Test IdP", HOOT_SIGN_IN_STARTS_PER_ADDRESS: "1000" });
  team = await createTeamFixture(server);
  devEmail = `dev-${team.teamName}@example.com`;
  idp.accounts.set("dev", { email: devEmail, email_verified: true, name: "Dev" });
  idp.accounts.set("stranger", { email: "stranger@example.com", email_verified: true, name: "Stranger" });
  idp.accounts.set("unverified", { email: devEmail, email_verified: false });
  idp.accounts.set("no-email", {});
});
afterAll(async () => {
  await server.close();
  await idp.close();
});

/** GET /console/auth/login in `browser`: the provider URL (and the browser got its binding cookie). */
async function startSignIn(browser: ConsoleBrowser): Promise<string> {
  const res = await browser.send("GET", "/console/auth/login");
  expect(res.status).toBe(303);
  return res.headers.get("location")!;
}

/** The whole browser flow as `account`: returns the callback's answer. */
async function signIn(browser: ConsoleBrowser, account: string) {
  const callback = await signInAtIdp(idp, await startSignIn(browser), account);
  expect(`${callback.origin}${callback.pathname}`).toBe(`${server.url}/console/auth/callback`);
  return browser.send("GET", `${callback.pathname}${callback.search}`);
}

const sessions = async () => Number((await rows(server, "SELECT CAST(count(*) AS INTEGER) AS n FROM console_sessions"))[0]!.n);

describe("console sign-in with the identity provider", () => {
  it("offers the provider instead of the key form, and refuses API-key sign-in", async () => {
    const browser = new ConsoleBrowser(server);
    expect((await browser.api("GET", "/sign-in-options")).body).toEqual({ single_sign_on: true, provider_name: "Test IdP" });
    const res = await browser.api("POST", "/session", { api_key: team.developerKey });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("sso_required");
  });

  it("sends the browser to the provider with PKCE, state, nonce and the openid email profile scopes", async () => {
    const browser = new ConsoleBrowser(server);
    const url = new URL(await startSignIn(browser));
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get("client_id")).toBe(idp.clientId);
    expect(url.searchParams.get("redirect_uri")).toBe(`${server.url}/console/auth/callback`);
    expect(url.searchParams.get("scope")).toBe("openid email profile");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(url.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(browser.cookie).toMatch(/^hoot_console_login=[A-Za-z0-9_-]{43}$/);
    // Only hashes and ciphertext are stored for the sign-in in flight.
    const pending = JSON.stringify(await rows(server, "SELECT * FROM console_logins"));
    expect(pending).not.toContain(url.searchParams.get("state")!);
  });

  it("signs a developer in with the e-mail from userinfo (the ID token has none), then signs out", async () => {
    const browser = new ConsoleBrowser(server);
    const res = await signIn(browser, "dev");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console#/profile");
    expect(browser.cookie).toMatch(/^hoot_console=[A-Za-z0-9_-]{43}$/);
    const session = await browser.session();
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { email: devEmail }, team: { pk: team.teamId }, method: "oidc" });
    expect((await browser.api("GET", "/key")).body.api_key).toBe(team.developerKey);

    const out = await browser.api("DELETE", "/session");
    expect(out.status).toBe(204);
    expect(browser.cookie).toBe("");
    expect((await browser.session()).status).toBe(401);
  });

  it("refuses a verified e-mail that is not a developer, with a page that says what to do, and no session", async () => {
    const before = await sessions();
    const res = await signIn(new ConsoleBrowser(server), "stranger");
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.body).toContain("stranger@example.com is not a developer on this hoot server");
    expect(res.body).toContain("invite");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'none'");
    expect(await sessions()).toBe(before);
    expect(await rows(server, "SELECT id FROM users WHERE email = 'stranger@example.com'")).toEqual([]);
  });

  it("refuses an e-mail the provider has not verified, even a developer's", async () => {
    const before = await sessions();
    const res = await signIn(new ConsoleBrowser(server), "unverified");
    expect(res.status).toBe(403);
    expect(res.body).toContain(`has not verified that ${devEmail} is yours`);
    expect(await sessions()).toBe(before);
  });

  it("refuses an account that shares no e-mail", async () => {
    const res = await signIn(new ConsoleBrowser(server), "no-email");
    expect(res.status).toBe(403);
    expect(res.body).toContain("did not share an e-mail address");
  });

  it("refuses a wrong state, a used state and a callback finished in another browser", async () => {
    const before = await sessions();
    const browser = new ConsoleBrowser(server);
    const callback = await signInAtIdp(idp, await startSignIn(browser), "dev");
    const forged = new URL(callback);
    forged.searchParams.set("state", "forged-state-value");
    const wrong = await browser.send("GET", `${forged.pathname}${forged.search}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain("expired, was already used, or was started in another browser");

    // A callback URL carried to another browser (login CSRF): the binding cookie is missing there.
    const browser2 = new ConsoleBrowser(server);
    const callback2 = await signInAtIdp(idp, await startSignIn(browser2), "dev");
    const elsewhere = await new ConsoleBrowser(server).send("GET", `${callback2.pathname}${callback2.search}`);
    expect(elsewhere.status).toBe(400);
    // The state is spent: the right browser cannot use it afterwards either.
    const used = await browser2.send("GET", `${callback2.pathname}${callback2.search}`);
    expect(used.status).toBe(400);
    expect(await sessions()).toBe(before);
  });

  it("shows the provider's refusal (an unknown account is denied at the provider)", async () => {
    const res = await signIn(new ConsoleBrowser(server), "nobody");
    expect(res.status).toBe(403);
    expect(res.body).toContain("did not sign you in (access_denied)");
  });

  it("lets an invited e-mail in: a new developer joins the inviting team and the invitation is used up", async () => {
    const inviter = new ConsoleBrowser(server);
    await signIn(inviter, "dev");
    await inviter.session();
    const email = `new-${Date.now()}@example.com`;
    expect((await inviter.api("POST", "/invitations", { email })).status).toBe(201);
    idp.accounts.set("invitee", { email: email.toUpperCase(), email_verified: true, name: "New Person" });
    const invitee = new ConsoleBrowser(server);
    expect((await signIn(invitee, "invitee")).status).toBe(303);
    const session = await invitee.session();
    expect(session.body).toMatchObject({ user: { name: "New Person", email }, team: { pk: team.teamId }, teams: [{ pk: team.teamId }] });
    expect((await invitee.api("GET", "/key")).body.api_key).toMatch(/^hoot_dev_dk_/);
    expect(await rows(server, "SELECT id FROM console_invitations WHERE email = ?", email)).toEqual([]);
  });

  it("does not add an existing developer to an inviting team at sign-in: the invitation waits for their acceptance", async () => {
    const second = await createTeam(server.deps, `second-${Date.now()}`);
    await rows(server, "INSERT INTO console_invitations (team_id, email) VALUES (?, ?)", second.id, devEmail);
    const again = new ConsoleBrowser(server);
    expect((await signIn(again, "dev")).status).toBe(303);
    expect((await again.session()).body.teams.map((t: { pk: number }) => t.pk)).toEqual([team.teamId]);
    // Their key still logs in without a team name: nobody pushed them into a second team.
    expect((await api(server.url, "POST", "/api/auth/login", { body: { api_key: team.developerKey } })).status).toBe(200);
    const waiting = await again.api("GET", "/my-invitations");
    expect(waiting.body.invitations).toEqual([{ pk: expect.any(Number), team: { pk: second.id, name: second.name }, created_at: expect.any(String) }]);
    const accepted = await again.api("POST", `/my-invitations/${waiting.body.invitations[0].pk}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.teams.map((t: { pk: number }) => t.pk)).toEqual([team.teamId, second.id]);
    expect(await rows(server, "SELECT id FROM console_invitations WHERE email = ?", devEmail)).toEqual([]);
    // Back to one team, so the rest of this file sees the developer as before.
    expect((await again.api("POST", `/teams/${second.id}/leave`)).status).toBe(200);
  });

  it("lets a brand-new account join only the team that invited it first; later invitations wait", async () => {
    const first = await createTeam(server.deps, `first-${Date.now()}`);
    const later = await createTeam(server.deps, `later-${Date.now()}`);
    const email = `twice-${Date.now()}@example.com`;
    const invite = (teamId: number) => rows(server, "INSERT INTO console_invitations (team_id, email) VALUES (?, ?)", teamId, email);
    await invite(first.id);
    await invite(later.id);
    idp.accounts.set("twice", { email, email_verified: true, name: "Twice" });
    const browser = new ConsoleBrowser(server);
    expect((await signIn(browser, "twice")).status).toBe(303);
    expect((await browser.session()).body.teams).toEqual([{ pk: first.id, name: first.name }]);
    expect((await browser.api("GET", "/my-invitations")).body.invitations.map((i: { team: { pk: number } }) => i.team.pk)).toEqual([later.id]);
  });
});

describe("the Python SDK's login_with_google against the configured provider", () => {
  /** What the SDK does: POST /app with its listener's URL, the browser signs in, the listener gets code and state. */
  async function sdkSignIn(account: string, redirect = "http://127.0.0.1:53121") {
    const start = await api(server.url, "POST", "/api/auth/login/google/app", { body: { redirect_uri: redirect } });
    expect(start.status).toBe(200);
    const authorization = new URL(start.body.authorization_url);
    const landed = await signInAtIdp(idp, authorization.href, account);
    return { authorization, landed };
  }

  it("answers an authorization_url, then an access token for the developer's code and state", async () => {
    const { authorization, landed } = await sdkSignIn("dev");
    expect(authorization.origin).toBe(idp.issuer);
    // The SDK's listener serves "/" and reads code and state from the query.
    expect(authorization.searchParams.get("redirect_uri")).toBe("http://127.0.0.1:53121/");
    expect(`${landed.origin}${landed.pathname}`).toBe("http://127.0.0.1:53121/");
    const code = landed.searchParams.get("code")!;
    const state = landed.searchParams.get("state")!;
    const finish = await api(server.url, "POST", "/api/auth/login/google/authorize", { body: { code, state } });
    expect(finish.status).toBe(200);
    expect(finish.body).toEqual({ access_token: expect.any(String), expires_in: 3600, token_type: "Bearer" });
    const me = await api(server.url, "GET", "/api/users/me", { token: finish.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(devEmail);
    // The same code and state again: spent.
    expect((await api(server.url, "POST", "/api/auth/login/google/authorize", { body: { code, state } })).status).toBe(401);
  });

  it("accepts the SDK's IPv6 listener URL", async () => {
    const { authorization } = await sdkSignIn("dev", "http://[::1]:53122");
    expect(authorization.searchParams.get("redirect_uri")).toBe("http://[::1]:53122/");
  });

  it("refuses a wrong state with 401 and the one body for failed credentials", async () => {
    const { landed } = await sdkSignIn("dev");
    const res = await api(server.url, "POST", "/api/auth/login/google/authorize", { body: { code: landed.searchParams.get("code"), state: "not-the-state" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Authentication failed: the credential is missing, invalid, expired or revoked.", code: "unauthorized" });
  });

  it("refuses a made-up code for a real state", async () => {
    const { landed } = await sdkSignIn("dev");
    const res = await api(server.url, "POST", "/api/auth/login/google/authorize", { body: { code: "made-up", state: landed.searchParams.get("state") } });
    expect(res.status).toBe(401);
  });

  it("refuses an e-mail that is not a developer and an unverified one, saying why", async () => {
    for (const [account, code] of [
      ["stranger", "not_a_developer"],
      ["unverified", "email_not_verified"],
    ] as const) {
      const { landed } = await sdkSignIn(account);
      const res = await api(server.url, "POST", "/api/auth/login/google/authorize", {
        body: { code: landed.searchParams.get("code"), state: landed.searchParams.get("state") },
      });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(code);
    }
  });

  it("refuses new sign-ins of a flow with 429 while too many of that flow are in flight; the other flow still works", async () => {
    const fill = async (purpose: "console" | "sdk") => {
      const now = (await rows(server, "SELECT CAST(count(*) AS INTEGER) AS n FROM console_logins WHERE purpose = ?", purpose))[0]!.n as number;
      // One statement that both databases read: a counter from `now` to the flow's cap - 1, one filler row each.
      await rawSql(
        server.deps.database,
        `WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
         INSERT INTO console_logins (state_hash, purpose, code_verifier_enc, nonce, redirect_uri, expires_at)
         SELECT 'filler-' || CAST(? AS TEXT) || '-' || i, CAST(? AS TEXT), ?, 'n', 'r', CAST(? AS BIGINT) FROM n`,
        now,
        MAX_PENDING[purpose],
        purpose,
        purpose,
        Buffer.from([0]),
        Date.now() + 60_000,
      );
    };
    const sdkStart = () => api(server.url, "POST", "/api/auth/login/google/app", { body: { redirect_uri: "http://127.0.0.1:53121" } });
    const consoleStart = () => new ConsoleBrowser(server).send("GET", "/console/auth/login");
    try {
      await fill("sdk");
      const res = await sdkStart();
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("60");
      // Anyone can fill the SDK flow; the console's sign-in is not blocked by it.
      expect((await consoleStart()).status).toBe(303);
      await rows(server, "DELETE FROM console_logins WHERE state_hash LIKE 'filler-%'");
      await fill("console");
      const page = await consoleStart();
      expect(page.status).toBe(429);
      expect(page.headers.get("retry-after")).toBe("60");
      expect(page.body).toContain("Too many sign-ins");
      expect((await sdkStart()).status).toBe(200);
    } finally {
      await rows(server, "DELETE FROM console_logins WHERE state_hash LIKE 'filler-%'");
    }
    expect((await sdkStart()).status).toBe(200);
  });

  it("refuses a redirect_uri that is not a loopback listener", async () => {
    for (const redirect of ["https://evil.example/cb", "http://10.0.0.1:8000", "not a url", "ftp://127.0.0.1/"]) {
      const res = await api(server.url, "POST", "/api/auth/login/google/app", { body: { redirect_uri: redirect } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("invalid_redirect_uri");
    }
  });

  it("refuses a console sign-in's state on the SDK route, and an SDK state on the console callback", async () => {
    const browser = new ConsoleBrowser(server);
    const consoleCallback = await signInAtIdp(idp, await startSignIn(browser), "dev");
    const res = await api(server.url, "POST", "/api/auth/login/google/authorize", {
      body: { code: consoleCallback.searchParams.get("code"), state: consoleCallback.searchParams.get("state") },
    });
    expect(res.status).toBe(401);
    const { landed } = await sdkSignIn("dev");
    const other = await browser.send("GET", `/console/auth/callback${landed.search}`);
    expect(other.status).toBe(400);
  });
});

describe("an issuer whose ID token carries the e-mail", () => {
  let idp2: TestIdp;
  let server2: TestServer;
  beforeAll(async () => {
    idp2 = await startIdp({ emailInIdToken: true });
    server2 = await startTestServer(await ssoServerEnv(idp2));
    const fixture = await createTeamFixture(server2, "idtoken-team");
    idp2.accounts.set("dev", { email: `dev-${fixture.teamName}@example.com`, email_verified: true });
    idp2.accounts.set("unverified", { email: `dev-${fixture.teamName}@example.com`, email_verified: false });
  });
  afterAll(async () => {
    await server2.close();
    await idp2.close();
  });

  it("signs in from the ID token's claims, and still refuses an unverified e-mail", async () => {
    const browser = new ConsoleBrowser(server2);
    const start = await browser.send("GET", "/console/auth/login");
    const callback = await signInAtIdp(idp2, start.headers.get("location")!, "dev");
    expect((await browser.send("GET", `${callback.pathname}${callback.search}`)).status).toBe(303);
    expect((await browser.session()).body.user.email).toBe("dev-idtoken-team@example.com");

    const refused = new ConsoleBrowser(server2);
    const start2 = await refused.send("GET", "/console/auth/login");
    const callback2 = await signInAtIdp(idp2, start2.headers.get("location")!, "unverified");
    expect((await refused.send("GET", `${callback2.pathname}${callback2.search}`)).status).toBe(403);
  });
});

describe("starting sign-ins from one address", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ ...(await ssoServerEnv(idp)), HOOT_SIGN_IN_STARTS_PER_ADDRESS: "3", HOOT_TRUST_PROXY: "true" });
  });
  afterAll(() => limited.close());

  it("is limited per client address across both flows (429 with Retry-After), and other addresses still start", async () => {
    const from = (address: string) => ({ "x-forwarded-for": address });
    const sdk = (address: string) =>
      api(limited.url, "POST", "/api/auth/login/google/app", { body: { redirect_uri: "http://127.0.0.1:53121" }, headers: from(address) });
    const browserStart = (address: string) => fetch(`${limited.url}/console/auth/login`, { redirect: "manual", headers: from(address) });
    expect((await sdk("198.51.100.7")).status).toBe(200);
    expect((await browserStart("198.51.100.7")).status).toBe(303);
    expect((await sdk("198.51.100.7")).status).toBe(200);
    const refused = await sdk("198.51.100.7");
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("too_many_requests");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const page = await browserStart("198.51.100.7");
    expect(page.status).toBe(429);
    expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
    const pending = Number((await rows(limited, "SELECT CAST(count(*) AS INTEGER) AS n FROM console_logins"))[0]!.n);
    expect(pending).toBe(3);
    // Someone else is not affected.
    expect((await sdk("198.51.100.8")).status).toBe(200);
    expect((await browserStart("198.51.100.8")).status).toBe(303);
  });
});

describe("an identity provider that cannot be reached", () => {
  let dead: TestServer;
  beforeAll(async () => {
    // Port 1 on loopback: nothing listens there, so discovery fails at once.
    dead = await startTestServer(await ssoServerEnv({ env: { HOOT_OIDC_ISSUER: "http://127.0.0.1:1", HOOT_OIDC_CLIENT_ID: "hoot" } }));
  });
  afterAll(() => dead.close());

  it("shows a page saying so, and the SDK route answers 502", async () => {
    const res = await new ConsoleBrowser(dead).send("GET", "/console/auth/login");
    expect(res.status).toBe(502);
    expect(res.body).toContain("The identity provider cannot be reached");
    const sdk = await api(dead.url, "POST", "/api/auth/login/google/app", { body: { redirect_uri: "http://127.0.0.1:53121" } });
    expect(sdk.status).toBe(502);
    expect(sdk.body.code).toBe("identity_provider_failed");
  });
});

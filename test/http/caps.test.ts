/**
 * Caps with settings (issue 24), each answered at its edge through the real server: service accounts and
 * pending invitations per team and stored configuration bytes per team (409 limit_reached naming the setting),
 * console sessions per developer (the oldest is signed out), incidents per player per minute (past the cap
 * counted on the latest row, not written one by one), and incidents purged by the retention setting.
 */
import { describe, expect, it } from "bun:test";
import { purgeExpired } from "../../src/conversations/service.ts";
import { ConsoleBrowser } from "../console/helpers/console.ts";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, serverForFile } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

const file = serverForFile({
  // The fixture makes two service accounts.
  HOOT_MAX_SERVICE_ACCOUNTS_PER_TEAM: "4",
  HOOT_MAX_PENDING_INVITATIONS_PER_TEAM: "2",
  HOOT_MAX_CONSOLE_SESSIONS_PER_DEVELOPER: "2",
  HOOT_MAX_STORED_CONFIG_BYTES_PER_TEAM: "2048",
  HOOT_INCIDENTS_PER_PLAYER_PER_MINUTE: "2",
  HOOT_MAX_STORED_NAMES_PER_KIND: "3",
  HOOT_MAX_STORED_VERSIONS_PER_NAME: "2",
  HOOT_MAX_STORED_BODY_BYTES: "1024",
  HOOT_MAX_SAFETY_POLICIES_PER_TEAM: "1",
});

const DISCLOSURE = "I want to kill myself tonight";

describe("caps answered at their edge", () => {
  it("refuses a team's service account past HOOT_MAX_SERVICE_ACCOUNTS_PER_TEAM with 409 limit_reached, on both routes, until one is deleted", async () => {
    const team = await createTeamFixture(file.server);
    const token = team.developerToken;
    const third = await api(file.server.url, "POST", "/api/service-accounts", { token, body: { name: "third" } });
    expect(third.status).toBe(201);
    expect((await api(file.server.url, "POST", "/api/users", { token, body: { name: "fourth", user_type: "playerLogin" } })).status).toBe(201);

    const fifth = await api(file.server.url, "POST", "/api/service-accounts", { token, body: { name: "fifth" } });
    expect(fifth.status).toBe(409);
    expect(fifth.body).toEqual({ code: "limit_reached", error: expect.stringContaining("HOOT_MAX_SERVICE_ACCOUNTS_PER_TEAM") });
    expect(fifth.body.error).toContain("(4,");
    expect((await api(file.server.url, "POST", "/api/users", { token, body: { name: "fifth", user_type: "playerCreate" } })).body.code).toBe("limit_reached");
    expect(await rawSql(file.server.deps.database, "SELECT name FROM service_accounts WHERE team_id = ? AND name = ?", team.teamId, "fifth")).toEqual([]);

    expect((await api(file.server.url, "DELETE", `/api/service-accounts/${third.body.pk}`, { token })).status).toBe(204);
    expect((await api(file.server.url, "POST", "/api/service-accounts", { token, body: { name: "fifth" } })).status).toBe(201);
  });

  it("refuses an invitation past HOOT_MAX_PENDING_INVITATIONS_PER_TEAM with 409 limit_reached; one already made still answers as before", async () => {
    const team = await createTeamFixture(file.server);
    const token = team.developerToken;
    const invite = (email: string) => api(file.server.url, "POST", "/api/users", { token, body: { name: "Friend", email, user_type: "user" } });
    expect((await invite(`a-${team.teamId}@example.com`)).status).toBe(202);
    expect((await invite(`b-${team.teamId}@example.com`)).status).toBe(202);
    // Inviting an e-mail again answers as before: nothing new is stored.
    expect((await invite(`a-${team.teamId}@example.com`)).status).toBe(202);
    const third = await invite(`c-${team.teamId}@example.com`);
    expect(third.status).toBe(409);
    expect(third.body).toEqual({ code: "limit_reached", error: expect.stringContaining("HOOT_MAX_PENDING_INVITATIONS_PER_TEAM") });
    expect(await rawSql(file.server.deps.database, "SELECT email FROM console_invitations WHERE team_id = ? ORDER BY id", team.teamId)).toEqual([
      { email: `a-${team.teamId}@example.com` },
      { email: `b-${team.teamId}@example.com` },
    ]);

    // The console says the same, and withdrawing one makes room.
    const browser = new ConsoleBrowser(file.server);
    await browser.signInWithKey(team.developerKey);
    expect((await browser.api("POST", "/invitations", { email: `c-${team.teamId}@example.com` })).body.code).toBe("limit_reached");
    const pending = await browser.api("GET", "/invitations");
    expect((await browser.api("DELETE", `/invitations/${pending.body.invitations[0].pk}`)).status).toBe(204);
    expect((await browser.api("POST", "/invitations", { email: `c-${team.teamId}@example.com` })).status).toBe(201);
  });

  it("signs the oldest console session out when a developer signs in past HOOT_MAX_CONSOLE_SESSIONS_PER_DEVELOPER", async () => {
    const team = await createTeamFixture(file.server);
    const browsers = [new ConsoleBrowser(file.server), new ConsoleBrowser(file.server), new ConsoleBrowser(file.server)];
    for (const browser of browsers) await browser.signInWithKey(team.developerKey);
    expect((await browsers[0]!.session()).status).toBe(401);
    expect((await browsers[1]!.session()).status).toBe(200);
    expect((await browsers[2]!.session()).status).toBe(200);
    const [{ n }] = (await rawSql(
      file.server.deps.database,
      "SELECT COUNT(*) AS n FROM console_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?",
      `dev-${team.teamName}@example.com`,
    )) as [{ n: number }];
    expect(Number(n)).toBe(2);
  });

  it("refuses a stored configuration past HOOT_MAX_STORED_CONFIG_BYTES_PER_TEAM, counting every version, with 409 limit_reached", async () => {
    const team = await createTeamFixture(file.server);
    const token = team.developerToken;
    const config = (letter: string) => ({ prompt: letter.repeat(800) });
    expect((await api(file.server.url, "POST", "/api/configs", { token, body: { name: "Owl", config: config("a") } })).status).toBe(201);
    expect((await api(file.server.url, "PUT", "/api/configs/Owl", { token, body: { config: config("b") } })).status).toBe(200);
    const third = await api(file.server.url, "POST", "/api/configs", { token, body: { name: "Fox", config: config("c") } });
    expect(third.status).toBe(409);
    expect(third.body).toEqual({ code: "limit_reached", error: expect.stringContaining("HOOT_MAX_STORED_CONFIG_BYTES_PER_TEAM") });
    expect((await api(file.server.url, "PUT", "/api/configs/Owl", { token, body: { config: config("d") } })).body.code).toBe("limit_reached");
    // Another team has its own budget; deleting a name frees this one's.
    const other = await createTeamFixture(file.server);
    expect((await api(file.server.url, "POST", "/api/configs", { token: other.developerToken, body: { name: "Fox", config: config("c") } })).status).toBe(201);
    expect((await api(file.server.url, "DELETE", "/api/configs/Owl", { token })).status).toBe(204);
    expect((await api(file.server.url, "POST", "/api/configs", { token, body: { name: "Fox", config: config("c") } })).status).toBe(201);
  });

  it("caps stored names per kind, versions per name and body size by their settings", async () => {
    const team = await createTeamFixture(file.server);
    const token = team.developerToken;
    const store = (name: string) => api(file.server.url, "POST", "/api/configs", { token, body: { name, config: { prompt: "x" } } });
    for (const name of ["a", "b", "c"]) expect((await store(name)).status).toBe(201);
    const fourth = await store("d");
    expect({ status: fourth.status, code: fourth.body.code }).toEqual({ status: 409, code: "limit_reached" });
    expect(fourth.body.error).toContain("HOOT_MAX_STORED_NAMES_PER_KIND");
    expect((await api(file.server.url, "PUT", "/api/configs/a", { token, body: { config: { prompt: "y" } } })).status).toBe(200);
    const third = await api(file.server.url, "PUT", "/api/configs/a", { token, body: { config: { prompt: "z" } } });
    expect({ status: third.status, code: third.body.code }).toEqual({ status: 409, code: "limit_reached" });
    expect(third.body.error).toContain("HOOT_MAX_STORED_VERSIONS_PER_NAME");
    const big = await api(file.server.url, "PUT", "/api/configs/b", { token, body: { config: { prompt: "x".repeat(1100) } } });
    expect({ status: big.status, code: big.body.code }).toEqual({ status: 400, code: "invalid_request" });
    expect(big.body.error).toContain("HOOT_MAX_STORED_BODY_BYTES");
  });

  it("refuses a team's safety policy past HOOT_MAX_SAFETY_POLICIES_PER_TEAM with 409 limit_reached", async () => {
    const team = await createTeamFixture(file.server);
    const policy = (name: string) => ({ name, base: "children_standard", blocked_terms: ["aimbot"] });
    expect((await api(file.server.url, "POST", "/api/safety-policies", { token: team.developerToken, body: policy("space_game") })).status).toBe(201);
    const second = await api(file.server.url, "POST", "/api/safety-policies", { token: team.developerToken, body: policy("farm_game") });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ code: "limit_reached", error: expect.stringContaining("HOOT_MAX_SAFETY_POLICIES_PER_TEAM") });
  });

  it("writes at most HOOT_INCIDENTS_PER_PLAYER_PER_MINUTE incidents a minute per player and counts the rest on the latest; retention purges them", async () => {
    const team = await createTeamFixture(file.server);
    const player = await createPlayer(file.server, team);
    const other = await createPlayer(file.server, team);
    const probe = await openSession(file.server.url, player.token);
    for (let i = 0; i < 5; i++) {
      const { events } = await probe.interact(DISCLOSURE, {}, 20_000);
      expect(events.filter((e) => e.event === "safety_policy").map((e) => e.category)).toEqual(["self_harm"]);
    }
    probe.close();
    const theirs = await openSession(file.server.url, other.token);
    await theirs.interact(DISCLOSURE, {}, 20_000);
    theirs.close();

    const list = await api(file.server.url, "GET", `/api/safety/incidents?player_pk=${player.pk}`, { token: team.developerToken });
    expect(list.status).toBe(200);
    expect(list.body.incidents.map((i: { category: string; repeats?: number }) => [i.category, i.repeats])).toEqual([
      ["self_harm", 3],
      ["self_harm", undefined],
    ]);
    // Another player has a budget of their own.
    const theirList = await api(file.server.url, "GET", `/api/safety/incidents?player_pk=${other.pk}`, { token: team.developerToken });
    expect(theirList.body.incidents.map((i: { repeats?: number }) => i.repeats)).toEqual([undefined]);

    // Past the retention setting (30 days by default) the purge removes incidents like conversations.
    expect(await purgeExpired(file.server.deps, file.server.config.retentionDays, Date.now() + 31 * 86_400_000)).toBeGreaterThanOrEqual(3);
    expect((await api(file.server.url, "GET", `/api/safety/incidents?player_pk=${player.pk}`, { token: team.developerToken })).body.incidents).toEqual([]);
  }, 60_000);
});

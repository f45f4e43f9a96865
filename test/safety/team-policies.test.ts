/**
 * Team safety policies through the real server: the HTTP routes (validated by the safety library, scoped to
 * the team), `GET /api/policies`, and a configuration that names one (resolved within the player's team at
 * set_configuration; what a session does when its policy is changed or deleted).
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deleteTeam } from "../../src/teams/service.ts";
import { rawSql } from "../helpers/database.ts";
import { type FakeOpenAi, fakeProviderEnv, startFakeOpenAi } from "../helpers/fake-openai.ts";
import { api, createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { type Msg, openSession, WsProbe } from "../helpers/ws.ts";

let fake: FakeOpenAi;
let server: TestServer;
let teamA: TeamFixture;
let teamB: TeamFixture;

beforeAll(async () => {
  fake = startFakeOpenAi();
  server = await startTestServer(fakeProviderEnv(fake));
  teamA = await createTeamFixture(server);
  teamB = await createTeamFixture(server);
});
afterAll(async () => {
  await server.close();
  await fake.stop();
});

const SPACE_GAME = {
  name: "space_game",
  description: "Our space shooter for 10-13 year olds",
  base: "children_standard",
  categories: {
    violence: { input: "allow", output: "block" },
    custom: { input: "redirect", lines: ["Let's get back to the mission, captain!"] },
  },
  blocked_terms: ["cheat codes", "aimbot"],
  allowed_terms: ["Kill Zone"],
  strict_after: 3,
};

const call = (team: TeamFixture, method: string, path: string, body?: unknown) => api(server.url, method, path, { token: team.developerToken, body });
const notices = (events: Msg[]) => events.filter((e) => e.event === "safety_policy").map((e) => ({ category: e.category, action: e.action }));
const reply = (events: Msg[]) => events.find((e) => e.event === "text_complete")?.text as string;

describe("team safety policy routes", () => {
  it("creates, reads, lists, replaces and deletes a policy", async () => {
    const created = await call(teamA, "POST", "/api/safety-policies", SPACE_GAME);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...SPACE_GAME, builtin: false, version: 1 });
    expect(created.body.created_at).toMatch(/Z$/);
    const got = await call(teamA, "GET", "/api/safety-policies/space_game");
    expect(got.body).toEqual(created.body);
    const listed = await call(teamA, "GET", "/api/safety-policies");
    expect(listed.body.policies.map((p: Msg) => p.name)).toEqual(["space_game"]);

    // GET -> edit -> PUT round-trips: the read-only fields may be sent back.
    const edited = { ...got.body, blocked_terms: ["cheat codes", "aimbot", "wallhack"] };
    const put = await call(teamA, "PUT", "/api/safety-policies/space_game", edited);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: "space_game", version: 2, blocked_terms: ["cheat codes", "aimbot", "wallhack"] });
    // A PUT carrying an old version is a lost update: refused.
    const stale = await call(teamA, "PUT", "/api/safety-policies/space_game", edited);
    expect([stale.status, stale.body.code]).toEqual([409, "conflict"]);
    expect((await call(teamA, "GET", "/api/safety-policies/space_game")).body.version).toBe(2);

    // PUT on a new name creates it.
    const upsert = await call(teamA, "PUT", "/api/safety-policies/quiet_room", { description: "No fighting at all", categories: { violence: "redirect" } });
    expect([upsert.status, upsert.body.name, upsert.body.version]).toEqual([201, "quiet_room", 1]);
    expect((await call(teamA, "DELETE", "/api/safety-policies/quiet_room")).status).toBe(204);
    expect((await call(teamA, "GET", "/api/safety-policies/quiet_room")).status).toBe(404);
    expect((await call(teamA, "DELETE", "/api/safety-policies/quiet_room")).status).toBe(404);
  });

  it("refuses bad policies with a sentence naming the field, and nothing is stored", async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: "a", categories: { self_harm: "allow" } }, /categories\.self_harm.*always escalated/],
      [{ name: "a", categories: { gore: "block" } }, /unknown field "categories\.gore"/],
      [{ name: "a", categories: { violence: "maybe" } }, /categories\.violence.*must be one of/],
      [{ name: "a", categories: { personal_info: "allow" } }, /personal_info/],
      [{ name: "a", redirect_lines: ["Fine.", "Shut up, you idiot."] }, /redirect_lines\[1\]" would itself be blocked/],
      [{ name: "a", colour: "blue" }, /unknown field "colour"/],
      [{ name: "Bad Name!" }, /field "name"/],
      [{ name: "default" }, /built-in policy name/],
      [{ name: "children_strict" }, /built-in policy name/],
      [{ categories: {} }, /field "name" is required/],
    ];
    for (const [body, message] of cases) {
      const res = await call(teamA, "POST", "/api/safety-policies", body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: "invalid_policy" });
      expect({ body, error: res.body.error }).toEqual({ body, error: expect.stringMatching(new RegExp(message.source, "i")) });
    }
    const put = await call(teamA, "PUT", "/api/safety-policies/other", { name: "different" });
    expect([put.status, put.body.code]).toEqual([400, "invalid_policy"]);
    const array = await call(teamA, "POST", "/api/safety-policies", [1, 2]);
    expect(array.status).toBe(400);
    const names = (await call(teamA, "GET", "/api/safety-policies")).body.policies.map((p: Msg) => p.name);
    expect(names).not.toContain("a");
    expect(names).not.toContain("other");
    const duplicate = await call(teamA, "POST", "/api/safety-policies", SPACE_GAME);
    expect([duplicate.status, duplicate.body.code]).toEqual([409, "name_taken"]);
  });

  it("keeps another team's policies invisible (404) and lets each team use the same name", async () => {
    expect((await call(teamB, "GET", "/api/safety-policies/space_game")).status).toBe(404);
    expect((await call(teamB, "DELETE", "/api/safety-policies/space_game")).status).toBe(404);
    expect((await call(teamB, "GET", "/api/safety-policies")).body).toEqual({ policies: [] });
    const theirs = await call(teamB, "PUT", "/api/safety-policies/space_game", { description: "team B's own", version: 2 });
    expect(theirs.status).toBe(404); // a version names an existing policy, which team B does not have
    const own = await call(teamB, "PUT", "/api/safety-policies/space_game", { description: "team B's own" });
    expect([own.status, own.body.version]).toEqual([201, 1]);
    expect((await call(teamA, "GET", "/api/safety-policies/space_game")).body.description).toBe(SPACE_GAME.description);
    expect((await call(teamB, "DELETE", "/api/safety-policies/space_game")).status).toBe(204);
    expect((await call(teamA, "GET", "/api/safety-policies/space_game")).status).toBe(200);
  });

  it("lists the built-in policies and the team's own in GET /api/policies", async () => {
    const a = await call(teamA, "GET", "/api/policies");
    expect(a.body.policies.slice(0, 3).map((p: Msg) => [p.name, p.builtin])).toEqual([
      ["default", true],
      ["children_strict", true],
      ["children_standard", true],
    ]);
    expect(a.body.policies.find((p: Msg) => p.name === "space_game")).toEqual({ name: "space_game", description: SPACE_GAME.description, builtin: false });
    const b = await call(teamB, "GET", "/api/policies");
    expect(b.body.policies.map((p: Msg) => p.name)).toEqual(["default", "children_strict", "children_standard"]);
  });

  it("accepts the safety page's example policy as it is printed, and the configuration it shows", async () => {
    const page = readFileSync(join(import.meta.dir, "../../docs/safety.md"), "utf8");
    const section = page.slice(page.indexOf("## Team policies"));
    const body = /-d '(\{[\s\S]*?\})'\n/.exec(section)![1]!;
    const other = await createTeamFixture(server);
    const res = await call(other, "POST", "/api/safety-policies", JSON.parse(body));
    expect(res.status).toBe(201);
    const player = await createPlayer(server, other);
    const probe = await openSession(server.url, player.token, { prompt: "You are a space captain.", safety_policy: { reference: res.body.name } });
    expect(reply((await probe.interact("where can I get an aimbot")).events)).toBe("Back to the mission, captain!");
    probe.close();
  });

  it("go with their team when it is deleted, and are documented in the OpenAPI document", async () => {
    const doomed = await createTeamFixture(server);
    expect((await call(doomed, "POST", "/api/safety-policies", { name: "temporary" })).status).toBe(201);
    const count = async () =>
      (await rawSql(server.deps.database, "SELECT CAST(count(*) AS INTEGER) AS n FROM safety_policies WHERE team_id = ?", doomed.teamId))[0]!.n;
    expect(await count()).toBe(1);
    await deleteTeam(server.deps, doomed.teamId);
    expect(await count()).toBe(0);
    const openapi = await api(server.url, "GET", "/api/openapi.json");
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(["/api/safety-policies", "/api/safety-policies/{name}", "/api/safety/incidents"]));
  });

  it("answers only developer tokens", async () => {
    const player = await createPlayer(server, teamA);
    expect((await api(server.url, "GET", "/api/safety-policies", { token: player.token })).status).toBe(403);
    expect((await api(server.url, "GET", "/api/safety-policies")).status).toBe(401);
  });
});

describe("a configuration that names a team policy", () => {
  it("resolves it within the player's team, by name or reference, and applies its terms and lines", async () => {
    const player = await createPlayer(server, teamA);
    for (const safety_policy of ["space_game", { reference: "space_game" }]) {
      const probe = await openSession(server.url, player.token, { prompt: "You are a space captain.", safety_policy });
      const chats = fake.chats.length;
      const blocked = await probe.interact("give me an AIMBOT");
      expect(fake.chats.length).toBe(chats);
      expect(notices(blocked.events)).toEqual([{ category: "custom", action: "redirect" }]);
      expect(reply(blocked.events)).toBe("Let's get back to the mission, captain!");
      // violence input is allowed by this policy: the model answers.
      fake.plan(["Pew", " pew!"]);
      const fight = await probe.interact("I want to blast the alien ship and kill the boss");
      expect(fake.chats.length).toBe(chats + 1);
      expect(reply(fight.events)).toBe("Pew pew!");
      probe.close();
    }
  });

  it("refuses another team's policy and unknown names with a sentence naming the field", async () => {
    const player = await createPlayer(server, teamB);
    const probe = await WsProbe.open(server.url);
    await probe.request("authenticate", { access_token: player.token });
    for (const safety_policy of ["space_game", { reference: "space_game" }, "no_such_policy"]) {
      const res = await probe.request("set_configuration", { config: { prompt: "Hi", safety_policy } });
      expect(res.kind).toBe("error");
      expect(res.code).toBe("invalid_configuration");
      expect(res.error).toMatch(/^field "config\.safety_policy": unknown policy "(space_game|no_such_policy)"/);
      expect(res.error).not.toContain(teamA.teamName);
    }
    for (const safety_policy of ["default", "children_standard", { reference: "children_strict" }, null]) {
      expect((await probe.request("set_configuration", { config: { prompt: "Hi", safety_policy } })).kind).toBe("set_configuration");
    }
    probe.close();
  });

  it("keeps the session's copy when the policy is changed or deleted, until the session reconfigures", async () => {
    expect(
      (
        await call(teamA, "POST", "/api/safety-policies", {
          name: "no_dragons",
          blocked_terms: ["dragon"],
          categories: { custom: { lines: ["Let's talk about unicorns!"] } },
        })
      ).status,
    ).toBe(201);
    const player = await createPlayer(server, teamA);
    const probe = await openSession(server.url, player.token, { prompt: "Hi", safety_policy: "no_dragons" });
    expect(reply((await probe.interact("tell me about a dragon")).events)).toBe("Let's talk about unicorns!");

    // Changed: the running session keeps its copy...
    expect(
      (
        await call(teamA, "PUT", "/api/safety-policies/no_dragons", {
          blocked_terms: ["goblin"],
          categories: { custom: { lines: ["Let's talk about unicorns!"] } },
        })
      ).status,
    ).toBe(200);
    expect(reply((await probe.interact("tell me about a dragon")).events)).toBe("Let's talk about unicorns!");
    // ...and takes the new version when it reconfigures.
    expect((await probe.request("merge_configuration", { config: { temperature: 0.5 } })).kind).toBe("merge_configuration");
    fake.plan(["Dragons", " are great!"]);
    expect(reply((await probe.interact("tell me about a dragon")).events)).toBe("Dragons are great!");
    expect(reply((await probe.interact("tell me about a goblin")).events)).toBe("Let's talk about unicorns!");

    // Deleted: the session keeps working with its copy; a later set_configuration naming it fails.
    expect((await call(teamA, "DELETE", "/api/safety-policies/no_dragons")).status).toBe(204);
    expect(reply((await probe.interact("tell me about a goblin")).events)).toBe("Let's talk about unicorns!");
    const again = await probe.request("set_configuration", { config: { prompt: "Hi", safety_policy: "no_dragons" } });
    expect(again.error).toMatch(/^field "config\.safety_policy": unknown policy "no_dragons"/);
    // The failed reconfigure kept the previous configuration and policy.
    expect(reply((await probe.interact("tell me about a goblin")).events)).toBe("Let's talk about unicorns!");
    probe.close();
  });

  it("validates a stored policy again when a session resolves it", async () => {
    // A body written by an older hoot that this one no longer accepts (here: put straight into the table).
    await rawSql(
      server.deps.database,
      "INSERT INTO safety_policies (team_id, name, body) VALUES (?, ?, ?)",
      teamA.teamId,
      "legacy",
      JSON.stringify({ categories: { self_harm: "allow" } }),
    );
    const player = await createPlayer(server, teamA);
    const probe = await WsProbe.open(server.url);
    await probe.request("authenticate", { access_token: player.token });
    const res = await probe.request("set_configuration", { config: { prompt: "Hi", safety_policy: "legacy" } });
    expect(res.error).toMatch(/^field "config\.safety_policy": the team policy "legacy" cannot be used \(field "categories\.self_harm"/);
    probe.close();
  });
});

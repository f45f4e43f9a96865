/**
 * Through the real server: an edit of several fields is all or nothing (a team's require_consent and name; a
 * player's consent and external_id), the audit listing takes "" as an absent value, and the hourly retention
 * sweep writes at most one `system` history_erase row per player per UTC day.
 */
import { describe, expect, it } from "bun:test";
import { purgeExpired } from "../../src/conversations/service.ts";
import { createOperatorKey } from "../../src/operator/service.ts";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, login, serverForFile, type TestServer } from "../helpers/server.ts";

const file = serverForFile();
const DAY = 86_400_000;

const operatorToken = async (server: TestServer) =>
  (await login(server.url, { api_key: (await createOperatorKey(server.deps, `ops-${crypto.randomUUID().slice(0, 8)}`)).api_key })).access_token;

const auditOf = async (playerPk: number, token = file.team.developerToken) =>
  (await api(file.server.url, "GET", `/api/audit?player_pk=${playerPk}`, { token })).body.audit as { action: string; actor: { kind: string } }[];

describe("editing a team", () => {
  it("leaves require_consent unchanged when the rename in the same request is refused (409)", async () => {
    const { server } = file;
    const team = await createTeamFixture(server);
    const taken = await createTeamFixture(server);
    const operator = await operatorToken(server);
    const both = await api(server.url, "PATCH", `/api/teams/${team.teamId}`, { token: operator, body: { name: taken.teamName, require_consent: true } });
    expect(both.status).toBe(409);
    expect(both.body.code).toBe("team_exists");
    const now = await api(server.url, "GET", `/api/teams/${team.teamId}`, { token: operator });
    expect(now.body.team).toMatchObject({ name: team.teamName, require_consent: false });
    // The same request with a free name does both.
    const free = `${team.teamName}-renamed`;
    const ok = await api(server.url, "PATCH", `/api/teams/${team.teamId}`, { token: operator, body: { name: free, require_consent: true } });
    expect(ok.status).toBe(200);
    expect(ok.body.team).toMatchObject({ name: free, require_consent: true });
  });
});

describe("editing a player", () => {
  it("leaves consent unchanged, and writes no consent row, when the external_id in the same request is taken (409)", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    const other = await createPlayer(server, team);
    const both = await api(server.url, "PATCH", `/api/players/${player.pk}`, {
      token: team.developerToken,
      body: { consent: "granted", external_id: other.externalId },
    });
    expect(both.status).toBe(409);
    expect(both.body.code).toBe("external_id_taken");
    const rows = await rawSql(server.deps.database, "SELECT external_id AS e, consent AS c, consent_updated_at AS u FROM players WHERE id = ?", player.pk);
    expect(rows).toEqual([{ e: player.externalId, c: "none", u: null }]);
    expect((await auditOf(player.pk)).map((r) => r.action)).toEqual([]);

    const ok = await api(server.url, "PATCH", `/api/players/${player.pk}`, {
      token: team.developerToken,
      body: { consent: "granted", external_id: "fresh-id" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ external_id: "fresh-id", consent: "granted" });
    expect((await auditOf(player.pk)).map((r) => r.action)).toEqual(["player.consent"]);
  });
});

describe("the audit listing", () => {
  it('takes "" for player_pk, after and limit as absent, as the SDKs send unset fields', async () => {
    const { server } = file;
    const team = await createTeamFixture(server);
    const [mia, leo] = [await createPlayer(server, team), await createPlayer(server, team)];
    await api(server.url, "GET", `/api/players/${mia.pk}`, { token: team.developerToken });
    await api(server.url, "GET", `/api/players/${leo.pk}`, { token: team.developerToken });
    const plain = await api(server.url, "GET", "/api/audit", { token: team.developerToken });
    expect(plain.body.audit.map((r: { player_pk: number }) => r.player_pk)).toEqual([leo.pk, mia.pk]);
    for (const query of ["player_pk=&limit=", "player_pk=&after=&limit=", "after=", "limit="]) {
      const empty = await api(server.url, "GET", `/api/audit?${query}`, { token: team.developerToken });
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual(plain.body);
    }
    // A value that is there is still checked.
    const bad = await api(server.url, "GET", "/api/audit?player_pk=&limit=many", { token: team.developerToken });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("limit");
    const one = await api(server.url, "GET", `/api/audit?player_pk=${mia.pk}&after=&limit=`, { token: team.developerToken });
    expect(one.body.audit.map((r: { player_pk: number }) => r.player_pk)).toEqual([mia.pk]);
  });
});

describe("the retention sweep's audit rows", () => {
  it("are at most one system history_erase per player per UTC day, however often the sweep erases their messages", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    const quiet = await createPlayer(server, team);
    const retention = server.config.retentionDays;
    // One clock for every sweep of the test: all of them fall on the same UTC day.
    const now = Date.now();
    const expire = async (pk: number) => {
      const sealed = server.deps.textCipher.seal("an old story", pk, "user");
      await server.deps.store.conversations.append(pk, [{ role: "user", sealed }]);
      await rawSql(server.deps.database, "UPDATE conversation_messages SET created_at = ? WHERE player_id = ?", now - (retention + 1) * DAY, pk);
    };
    const systemRows = async (pk: number) => (await auditOf(pk)).filter((r) => r.actor.kind === "system" && r.action === "player.history_erase").length;

    for (let sweep = 0; sweep < 3; sweep++) {
      await expire(player.pk);
      expect(await purgeExpired(server.deps, retention, now)).toBeGreaterThanOrEqual(1);
      expect(await rawSql(server.deps.database, "SELECT id FROM conversation_messages WHERE player_id = ?", player.pk)).toEqual([]);
    }
    expect(await systemRows(player.pk)).toBe(1);
    // Another player erased the same day still gets their own row.
    await expire(quiet.pk);
    await purgeExpired(server.deps, retention, now);
    expect(await systemRows(quiet.pk)).toBe(1);

    // Yesterday's row does not stand for today's erasure.
    await rawSql(server.deps.database, "UPDATE audit SET at = at - ? WHERE player_id = ? AND actor_kind = 'system'", DAY, player.pk);
    await expire(player.pk);
    await purgeExpired(server.deps, retention, now);
    expect(await systemRows(player.pk)).toBe(2);
  });
});

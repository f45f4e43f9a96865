/**
 * A parent's requests through the real server (PROTOCOL.md section 8): consent, the export of a player's data,
 * erasure of the history that keeps the player, and the audit trail of each, team-scoped and without content.
 */
import { describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { purgeExpired } from "../../src/conversations/service.ts";
import { everything, holdLocks, rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, login, serverForFile, startTestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

const file = serverForFile();
const WORDS = "my tortoise Bartholomew sleeps in a shoebox";
const DISCLOSURE = "I want to kill myself tonight";

async function talk(token: string, ...texts: string[]): Promise<void> {
  const probe = await openSession(file.server.url, token);
  for (const text of texts) await probe.interact(text);
  probe.close();
}

const audit = async (playerPk: number, token = file.team.developerToken) =>
  (await api(file.server.url, "GET", `/api/audit?player_pk=${playerPk}`, { token })).body.audit as {
    at: string;
    actor: { kind: string; pk: number | null };
    action: string;
    player_pk: number;
    request_id: string | null;
  }[];

/** The SQLite file and its WAL, as bytes on disk now. */
const sqliteFiles = (path: string): Buffer => Buffer.concat([readFileSync(path), existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`) : Buffer.alloc(0)]);

const developerPk = async () => (await api(file.server.url, "GET", "/api/users/me", { token: file.team.developerToken })).body.pk as number;

describe("consent", () => {
  it("is none until the team's backend sets it, with a developer token or a playerCreate service token, each change audited", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    const fresh = await api(server.url, "GET", `/api/players/${player.pk}`, { token: team.developerToken });
    expect(fresh.body).toMatchObject({ pk: player.pk, consent: "none", consent_updated_at: null });

    const service = (await login(server.url, { api_key: team.backendKey })).access_token;
    const granted = await api(server.url, "PATCH", `/api/players/${player.pk}`, {
      token: service,
      body: { consent: "granted" },
      headers: { "x-request-id": "parent-said-yes-1" },
    });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ pk: player.pk, external_id: player.externalId, consent: "granted" });
    expect(Date.parse(granted.body.consent_updated_at)).toBeGreaterThan(Date.now() - 60_000);

    const revoked = await api(server.url, "PATCH", `/api/players/${player.pk}`, { token: team.developerToken, body: { consent: "none" } });
    expect(revoked.body.consent).toBe("none");

    const rows = await audit(player.pk);
    expect(rows.map((r) => [r.action, r.actor.kind])).toEqual([
      ["player.consent", "developer"],
      ["player.consent", "service_account"],
      ["player.read", "developer"],
    ]);
    expect(rows[1]).toEqual({
      at: expect.any(String),
      actor: { kind: "service_account", pk: team.backendKeyPk },
      action: "player.consent",
      player_pk: player.pk,
      request_id: "parent-said-yes-1",
    });
    expect(rows[0]!.actor.pk).toBe(await developerPk());
    // A generated request id when the client sent none: the one its answer carried.
    expect(rows[0]!.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a value that is not none or granted, and a service token changing the external id", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    const bad = await api(server.url, "PATCH", `/api/players/${player.pk}`, { token: team.developerToken, body: { consent: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("consent");
    expect(bad.body.error).not.toContain("{");
    const empty = await api(server.url, "PATCH", `/api/players/${player.pk}`, { token: team.developerToken, body: {} });
    expect(empty.status).toBe(400);
    const service = (await login(server.url, { api_key: team.backendKey })).access_token;
    const rename = await api(server.url, "PATCH", `/api/players/${player.pk}`, { token: service, body: { external_id: "stolen" } });
    expect(rename.status).toBe(403);
    expect(rename.body.code).toBe("permission_denied");
    expect((await api(server.url, "GET", `/api/players/${player.pk}/data`, { token: service })).status).toBe(403);
    expect((await api(server.url, "DELETE", `/api/players/${player.pk}/history`, { token: service })).status).toBe(403);
    expect((await api(server.url, "GET", "/api/audit", { token: service })).status).toBe(403);
    expect((await api(server.url, "GET", `/api/players/${player.pk}/data`, { token: player.token })).status).toBe(403);
    expect(await audit(player.pk)).toEqual([]);
  });
});

describe("a team's require_consent", () => {
  it("is set by the team's own developer, shown on the team, and renaming stays the operator's", async () => {
    const { server } = file;
    const team = await createTeamFixture(server);
    const on = await api(server.url, "PATCH", `/api/teams/${team.teamId}`, { token: team.developerToken, body: { require_consent: true } });
    expect(on.status).toBe(200);
    expect(on.body.team).toEqual({ pk: team.teamId, name: team.teamName, created_at: expect.any(String), require_consent: true });
    const rename = await api(server.url, "PATCH", `/api/teams/${team.teamId}`, { token: team.developerToken, body: { name: "mine now" } });
    expect(rename.status).toBe(403);
    // The Python SDK sends absent fields as null (and Unity as ""): they change nothing, so they are no rename.
    const withNull = await api(server.url, "PATCH", `/api/teams/${team.teamId}`, { token: team.developerToken, body: { name: null, require_consent: true } });
    expect(withNull.status).toBe(200);
    const off = await api(server.url, "PATCH", `/api/teams/${team.teamId}`, { token: team.developerToken, body: { name: "", require_consent: false } });
    expect(off.body.team.require_consent).toBe(false);
    expect((await api(server.url, "PATCH", `/api/teams/${team.teamId}`, { token: team.developerToken, body: { require_consent: "yes" } })).status).toBe(400);
  });
});

describe("a parent's request for their child's data", () => {
  it("exports the player, consent, the history in the clear with times, the memory, and incidents without words", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    await talk(player.token, WORDS, DISCLOSURE);
    const res = await api(server.url, "GET", `/api/players/${player.pk}/data`, { token: team.developerToken, headers: { "x-request-id": "parent-asked-7" } });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.player).toEqual({ pk: player.pk, external_id: player.externalId, created_at: expect.any(String) });
    expect(doc.consent).toEqual({ consent: "none", updated_at: null });
    expect(doc.history[0]).toEqual({ role: "user", text: WORDS, at: expect.any(String) });
    expect(doc.history[1].role).toBe("assistant");
    expect(doc.history[1].text.length).toBeGreaterThan(0);
    expect(doc.history).toHaveLength(4);
    expect(doc.memory.map((m: { text: string }) => m.text)).toEqual(doc.history.map((m: { text: string }) => m.text));
    expect(doc.incidents.length).toBeGreaterThan(0);
    expect(doc.incidents[0]).toMatchObject({ player_pk: player.pk, action: "escalate", direction: "input" });
    expect(JSON.stringify(doc.incidents)).not.toContain("kill");
    // The federated id is a credential, not data about the child: it is not in the document.
    expect(JSON.stringify(doc)).not.toContain(player.federatedId);
    expect((await audit(player.pk))[0]).toMatchObject({ action: "player.export", actor: { kind: "developer" }, request_id: "parent-asked-7" });
  });

  it("erases the history and memory, keeps the player, and the words leave the database", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    await talk(player.token, WORDS);
    const before = await rawSql(server.deps.database, "SELECT text_enc AS sealed FROM conversation_messages WHERE player_id = ?", player.pk);
    expect(before.length).toBe(2);
    const sealed = before.map((row) => Buffer.from(row.sealed as Uint8Array));
    const beforeErasure = server.backend === "sqlite" ? sqliteFiles(server.config.databasePath) : await everything(server.deps.database);
    for (const bytes of sealed) expect(beforeErasure.includes(bytes.subarray(12, 40))).toBe(true);
    const erased = await api(server.url, "DELETE", `/api/players/${player.pk}/history`, { token: team.developerToken });
    expect(erased.status).toBe(204);
    expect(await rawSql(server.deps.database, "SELECT id FROM conversation_messages WHERE player_id = ?", player.pk)).toEqual([]);
    // Not only gone from the table: the sealed bytes are no longer anywhere in the data (SQLite: the file and its WAL
    // as they are on disk, before anything else checkpoints them).
    const data = server.backend === "sqlite" ? sqliteFiles(server.config.databasePath) : await everything(server.deps.database);
    for (const bytes of sealed) expect(data.includes(bytes.subarray(12, 40))).toBe(false);
    const doc = (await api(server.url, "GET", `/api/players/${player.pk}/data`, { token: team.developerToken })).body;
    expect(doc.history).toEqual([]);
    expect(doc.memory).toEqual([]);
    expect((await api(server.url, "GET", `/api/players/${player.pk}`, { token: team.developerToken })).status).toBe(200);
    // The player talks on, with a fresh memory.
    await talk(player.token, "hello again");
    const after = (await api(server.url, "GET", `/api/players/${player.pk}/data`, { token: team.developerToken })).body;
    expect(after.history[0].text).toBe("hello again");
    expect((await audit(player.pk)).map((r) => r.action)).toEqual(["player.export", "player.read", "player.export", "player.history_erase"]);
  });
});

describe("the audit trail", () => {
  it("outlives the deleted player, holds no content, and pages newest first", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    await talk(player.token, WORDS);
    for (let i = 0; i < 3; i++) await api(server.url, "GET", `/api/players/${player.pk}`, { token: team.developerToken });
    await api(server.url, "GET", `/api/players/${player.pk}/data`, { token: team.developerToken });
    expect((await api(server.url, "DELETE", `/api/players/${player.pk}`, { token: team.developerToken })).status).toBe(204);
    const rows = await audit(player.pk);
    expect(rows.map((r) => r.action)).toEqual(["player.delete", "player.export", "player.read", "player.read", "player.read"]);
    expect(JSON.stringify(rows)).not.toContain("Bartholomew");

    const first = await api(server.url, "GET", `/api/audit?player_pk=${player.pk}&limit=2`, { token: team.developerToken });
    expect(first.body.audit.map((r: { action: string }) => r.action)).toEqual(["player.delete", "player.export"]);
    const second = await api(server.url, "GET", `/api/audit?player_pk=${player.pk}&limit=2&after=${first.body.next}`, { token: team.developerToken });
    expect(second.body.audit.map((r: { action: string }) => r.action)).toEqual(["player.read", "player.read"]);
    const last = await api(server.url, "GET", `/api/audit?player_pk=${player.pk}&limit=2&after=${second.body.next}`, { token: team.developerToken });
    expect(last.body).toEqual({ audit: [rows[4]], next: null });
    // The whole team's trail holds them too.
    const all = (await api(server.url, "GET", "/api/audit?limit=1000", { token: team.developerToken })).body.audit as { player_pk: number }[];
    expect(all.filter((r) => r.player_pk === player.pk)).toHaveLength(5);
    expect((await api(server.url, "GET", "/api/audit?after=nonsense", { token: team.developerToken })).status).toBe(400);
    expect((await api(server.url, "GET", "/api/audit?limit=0", { token: team.developerToken })).status).toBe(400);
  });
});

describe("while another process holds the database's write lock", () => {
  it("still answers a player's read and writes its audit row once the lock is released", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    const lock = await holdLocks(server.deps.database, { teams: [team.teamId], players: [player.pk] });
    try {
      const read = await api(server.url, "GET", `/api/players/${player.pk}`, { token: team.developerToken, headers: { "x-request-id": "read-under-lock" } });
      expect(read.status).toBe(200);
    } finally {
      await lock.release();
    }
    let rows = await audit(player.pk);
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      await Bun.sleep(20);
      rows = await audit(player.pk);
    }
    expect(rows.map((r) => [r.action, r.request_id])).toEqual([["player.read", "read-under-lock"]]);
  });
});

describe("the retention purge", () => {
  it("writes a system audit row for each player whose old messages it erased", async () => {
    const { server, team } = file;
    const player = await createPlayer(server, team);
    await talk(player.token, WORDS);
    const day = 86_400_000;
    expect(await purgeExpired(server.deps, server.config.retentionDays, Date.now() + (server.config.retentionDays + 1) * day)).toBeGreaterThanOrEqual(2);
    expect((await api(server.url, "GET", `/api/players/${player.pk}/data`, { token: team.developerToken })).body.history).toEqual([]);
    expect((await audit(player.pk)).find((r) => r.actor.kind === "system")).toEqual({
      at: expect.any(String),
      actor: { kind: "system", pk: null },
      action: "player.history_erase",
      player_pk: player.pk,
      request_id: null,
    });
  });
});

describe("the OpenAPI document", () => {
  it("describes the new routes with their schemas", async () => {
    const spec = (await api(file.server.url, "GET", "/api/openapi.json")).body;
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/api/players/{player_pk}/data", "/api/players/{player_pk}/history", "/api/audit"]));
    const exported = JSON.stringify(spec.paths["/api/players/{player_pk}/data"].get.responses);
    for (const field of ["history", "memory", "incidents", "consent"]) expect(exported).toContain(`"${field}"`);
    expect(JSON.stringify(spec.paths["/api/audit"].get)).toContain("player_pk");
    expect(JSON.stringify(spec.paths["/api/players/{player_pk}"].get.responses)).toContain('"consent_updated_at"');
  });
});

describe("audit rows' own retention", () => {
  it("purges rows older than HOOT_AUDIT_RETENTION_DAYS with the retention sweep, and keeps newer ones", async () => {
    const server = await startTestServer({ HOOT_AUDIT_RETENTION_DAYS: "1", HOOT_RETENTION_SWEEP_MS: "100" });
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      await api(server.url, "GET", `/api/players/${player.pk}`, { token: team.developerToken });
      await rawSql(
        server.deps.database,
        "INSERT INTO audit (at, team_id, actor_kind, actor_pk, action, player_id, request_id) VALUES (?, ?, 'system', NULL, 'player.history_erase', ?, NULL)",
        Date.now() - 2 * 86_400_000,
        team.teamId,
        player.pk,
      );
      const actions = async () =>
        ((await api(server.url, "GET", `/api/audit?player_pk=${player.pk}`, { token: team.developerToken })).body.audit as { action: string }[]).map(
          (r) => r.action,
        );
      for (let i = 0; i < 200 && (await actions()).length > 1; i++) await Bun.sleep(20);
      expect(await actions()).toEqual(["player.read"]);
    } finally {
      await server.close();
    }
  });
});

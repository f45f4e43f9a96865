import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOperatorKey } from "../../src/operator/service.ts";
import { rawSql } from "../helpers/database.ts";
import { runHoot } from "../helpers/process.ts";
import {
  api,
  createPlayer,
  createTeamFixture,
  databaseEnv,
  login,
  startTestServer,
  TEST_SECRET,
  type TeamFixture,
  type TestServer,
} from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

let dir: string;
let server: TestServer;
let team: TeamFixture;
const adminEnv = () => ({ HOOT_DATA_DIR: dir, HOOT_SECRET_KEY: TEST_SECRET, ...databaseEnv(server) });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hoot-operator-"));
  server = await startTestServer({ HOOT_LLM_API_KEY: "sk-very-secret-llm-key", HOOT_TTS_BASE_URL: "https://alice:hunter2@speech.example.com/v1" }, { dir });
  team = await createTeamFixture(server);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const operatorToken = async () =>
  (await login(server.url, { api_key: (await createOperatorKey(server.deps, `ops-${crypto.randomUUID().slice(0, 8)}`)).api_key })).access_token;

const OPERATOR_ROUTES: [string, string, unknown?][] = [
  ["GET", "/api/settings"],
  ["GET", "/api/users"],
  ["POST", "/api/teams", { name: "x" }],
  ["GET", "/api/teams/1"],
  ["PATCH", "/api/teams/1", { name: "y" }],
  ["DELETE", "/api/teams/1"],
  ["GET", "/api/users/1"],
  ["PATCH", "/api/users/1", { name: "z" }],
  ["DELETE", "/api/users/1"],
  ["POST", "/api/users/1/teams/1", {}],
  ["DELETE", "/api/users/1/teams/1"],
];

describe("operator keys from the admin command", () => {
  it("are made, rotated and deleted only by hoot admin, and each change ends the old key's tokens at once", async () => {
    const made = await runHoot(["admin", "create-operator-key"], dir, adminEnv());
    expect(made.code).toBe(0);
    const out = JSON.parse(made.stdout);
    expect(out).toEqual({ operator_key: { pk: expect.any(Number), name: "operator" }, api_key: expect.stringMatching(/^hoot_dev_op_[0-9A-Za-z]{38}$/) });
    const first = (await login(server.url, { api_key: out.api_key })).access_token;
    expect((await api(server.url, "GET", "/api/settings", { token: first })).status).toBe(200);

    const again = await runHoot(["admin", "create-operator-key"], dir, adminEnv());
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('An operator key named "operator" already exists');

    const rotated = await runHoot(["admin", "rotate-operator-key"], dir, adminEnv());
    expect(rotated.code).toBe(0);
    const newKey = JSON.parse(rotated.stdout).api_key;
    expect((await api(server.url, "GET", "/api/settings", { token: first })).status).toBe(401);
    expect((await api(server.url, "POST", "/api/auth/login", { body: { api_key: out.api_key } })).status).toBe(401);
    const second = (await login(server.url, { api_key: newKey })).access_token;
    expect((await api(server.url, "GET", "/api/users", { token: second })).status).toBe(200);

    const deleted = await runHoot(["admin", "delete-operator-key", "--name", "operator"], dir, adminEnv());
    expect(deleted.code).toBe(0);
    expect((await api(server.url, "GET", "/api/users", { token: second })).status).toBe(401);
    expect((await api(server.url, "POST", "/api/auth/login", { body: { api_key: newKey } })).status).toBe(401);
  }, 60_000);

  it("stores only a keyed hash of the key", async () => {
    const { api_key } = await createOperatorKey(server.deps, "stored-hash-check");
    const [row] = await rawSql(server.deps.database, "SELECT * FROM operator_keys WHERE name = 'stored-hash-check'");
    const stored = JSON.stringify(row);
    expect(stored).toContain(server.deps.secrets.lookupHash(api_key));
    expect(stored).not.toContain(api_key.slice(12, 44));
    const raw = server.deps.database.raw;
    if (raw.kind === "sqlite") {
      raw.sqlite.exec("PRAGMA wal_checkpoint(FULL)");
      const bytes = readFileSync(join(dir, "hoot.db")).toString("latin1");
      expect(bytes).not.toContain(api_key);
      expect(bytes).not.toContain(api_key.slice(12, 44));
    }
  });

  it("refuses an operator key sent with team_name or federated_id, with the one 401 body", async () => {
    const { api_key } = await createOperatorKey(server.deps, "login-shapes");
    for (const extra of [{ team_name: team.teamName }, { federated_id: (await createPlayer(server, team)).federatedId }]) {
      const res = await api(server.url, "POST", "/api/auth/login", { body: { api_key, ...extra } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("unauthorized");
    }
  });
});

describe("operator routes", () => {
  it("answer 403 to developer, service and player tokens and 401 without one", async () => {
    const service = (await login(server.url, { api_key: team.backendKey })).access_token;
    const player = (await createPlayer(server, team)).token;
    for (const [method, path, body] of OPERATOR_ROUTES) {
      for (const token of [team.developerToken, service, player]) {
        const res = await api(server.url, method, path, { token, body });
        expect({ method, path, status: res.status, code: res.body.code }).toEqual({ method, path, status: 403, code: "permission_denied" });
      }
      expect((await api(server.url, method, path, { body })).status).toBe(401);
    }
  });

  it("are the only routes an operator token reaches", async () => {
    const token = await operatorToken();
    for (const [method, path, body] of [
      ["GET", "/api/players"],
      ["POST", "/api/players", { external_id: "op" }],
      ["GET", "/api/users/me"],
      ["GET", "/api/service-accounts"],
      ["GET", "/api/users/service_accounts"],
    ] as [string, string, unknown?][]) {
      expect({ path, status: (await api(server.url, method, path, { token, body })).status }).toEqual({ path, status: 403 });
    }
  });

  it("show the settings without secret values", async () => {
    const res = await api(server.url, "GET", "/api/settings", { token: await operatorToken() });
    expect(res.status).toBe(200);
    expect(res.body.settings).toMatchObject({
      env: "dev",
      secret_key: "[set]",
      llm_api_key: "[set]",
      tts_api_key: null,
      tts_base_url: "https://speech.example.com/v1",
    });
    const text = JSON.stringify(res.body);
    for (const secret of ["sk-very-secret-llm-key", "hunter2", "alice", TEST_SECRET]) expect(text).not.toContain(secret);
  });

  it("refuse taken names and e-mails with 409, bad bodies and ids with 400, and what is absent with 404", async () => {
    const token = await operatorToken();
    const taken = await api(server.url, "POST", "/api/teams", { token, body: { name: team.teamName } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("team_exists");
    expect((await api(server.url, "POST", "/api/teams", { token, body: { name: "ok", region: "eu" } })).status).toBe(400);
    expect((await api(server.url, "PATCH", `/api/teams/${team.teamId}`, { token, body: { name: 5 } })).status).toBe(400);
    expect((await api(server.url, "GET", "/api/teams/abc", { token })).status).toBe(400);
    expect((await api(server.url, "GET", "/api/teams/999999", { token })).status).toBe(404);
    const other = await createTeamFixture(server);
    const rename = await api(server.url, "PATCH", `/api/teams/${other.teamId}`, { token, body: { name: team.teamName } });
    expect(rename.status).toBe(409);
    expect((await api(server.url, "GET", `/api/teams/${other.teamId}`, { token })).body.team.name).toBe(other.teamName);
    const email = `dev-${team.teamName}@example.com`;
    const dup = await api(server.url, "POST", "/api/users", { token, body: { name: "Again", email } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("email_taken");
    const stranger = await api(server.url, "POST", "/api/users", { token, body: { name: "Stranger", email: `stranger-${Date.now()}@example.com` } });
    expect((await api(server.url, "DELETE", `/api/users/${stranger.body.pk}/teams/${team.teamId}`, { token })).status).toBe(404);
    expect((await api(server.url, "POST", `/api/users/${stranger.body.pk}/teams/999999`, { token, body: {} })).status).toBe(404);
    expect((await api(server.url, "POST", "/api/users", { token, body: { name: "svc", user_type: "playerLogin" } })).status).toBe(400);
  });

  it("deleting a team deletes its players' conversations and closes their sockets (4403) at once", async () => {
    const doomed = await createTeamFixture(server);
    const player = await createPlayer(server, doomed);
    const session = await openSession(server.url, player.token);
    await session.interact("Hello owl!");
    const sql = (text: string, ...params: unknown[]) => rawSql(server.deps.database, text, ...params);
    expect((await sql("SELECT id FROM conversation_messages WHERE player_id = ?", player.pk)).length).toBeGreaterThan(0);
    const res = await api(server.url, "DELETE", `/api/teams/${doomed.teamId}`, { token: await operatorToken() });
    expect(res.status).toBe(204);
    expect((await session.closed).code).toBe(4403);
    expect(await sql("SELECT id FROM conversation_messages WHERE player_id = ?", player.pk)).toEqual([]);
    expect(await sql("SELECT id FROM players WHERE team_id = ?", doomed.teamId)).toEqual([]);
    expect(await sql("SELECT id FROM service_accounts WHERE team_id = ?", doomed.teamId)).toEqual([]);
    expect(await sql("SELECT id FROM teams WHERE id = ?", doomed.teamId)).toEqual([]);
    expect((await api(server.url, "GET", "/api/players", { token: doomed.developerToken })).status).toBe(401);
    expect((await api(server.url, "POST", "/api/auth/login", { body: { api_key: doomed.backendKey } })).status).toBe(401);
    // The developer still exists (they may be in other teams); the other team is untouched.
    expect((await api(server.url, "GET", "/api/players", { token: team.developerToken })).status).toBe(200);
  });

  it("GET /api/teams lists every team for the operator and only the caller's own for a developer", async () => {
    const other = await createTeamFixture(server);
    const all = await api(server.url, "GET", "/api/teams", { token: await operatorToken() });
    expect(all.body.teams).toContainEqual({ pk: team.teamId, name: team.teamName });
    expect(all.body.teams).toContainEqual({ pk: other.teamId, name: other.teamName });
    const mine = await api(server.url, "GET", "/api/teams", { token: team.developerToken });
    expect(mine.body.teams).toEqual([{ pk: team.teamId, name: team.teamName }]);
  });
});

/**
 * The reads every request makes (a token's credential version, a player's row) are answered from a
 * process-local cache (src/db/sqlite/read-cache.ts). These tests show that a change takes effect on the very
 * next request whoever made it: this process (the API), another process (`hoot admin`), or another
 * connection writing the file directly.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { runHoot } from "../helpers/process.ts";
import { api, createPlayer, createTeamFixture, login, startTestServer, TEST_SECRET, type TeamFixture, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let team: TeamFixture;
const adminEnv = () => ({ HOOT_DATA_DIR: server.dir, HOOT_SECRET_KEY: TEST_SECRET });

beforeAll(async () => {
  server = await startTestServer({}, { backend: "sqlite" });
  team = await createTeamFixture(server);
});
afterAll(() => server.close());

const getPlayer = (token: string, pk: number) => api(server.url, "GET", `/api/players/${pk}`, { token });

describe("cached reads on SQLite", () => {
  it("refuses a developer token on the first request after `hoot admin rotate-developer-key` ran in another process", async () => {
    const player = await createPlayer(server, team);
    // Warm the cache: the same answers twice.
    expect((await getPlayer(team.developerToken, player.pk)).status).toBe(200);
    expect((await getPlayer(team.developerToken, player.pk)).status).toBe(200);

    const rotated = await runHoot(["admin", "rotate-developer-key", "--email", `dev-${team.teamName}@example.com`], server.dir, adminEnv());
    expect(rotated.code).toBe(0);

    expect((await getPlayer(team.developerToken, player.pk)).status).toBe(401);
    const fresh = (await login(server.url, { api_key: JSON.parse(rotated.stdout).api_key })).access_token;
    expect((await getPlayer(fresh, player.pk)).status).toBe(200);
    team.developerToken = fresh;
  }, 30_000);

  it("refuses an operator token on the first request after `hoot admin rotate-operator-key` ran in another process", async () => {
    const made = await runHoot(["admin", "create-operator-key", "--name", "cache-check"], server.dir, adminEnv());
    expect(made.code).toBe(0);
    const token = (await login(server.url, { api_key: JSON.parse(made.stdout).api_key })).access_token;
    expect((await api(server.url, "GET", "/api/users", { token })).status).toBe(200);
    expect((await api(server.url, "GET", "/api/users", { token })).status).toBe(200);

    const rotated = await runHoot(["admin", "rotate-operator-key", "--name", "cache-check"], server.dir, adminEnv());
    expect(rotated.code).toBe(0);
    expect((await api(server.url, "GET", "/api/users", { token })).status).toBe(401);
  }, 30_000);

  it("answers the player's row as this process just changed it, and 404 once it deleted it", async () => {
    const player = await createPlayer(server, team);
    expect((await getPlayer(team.developerToken, player.pk)).body.external_id).toBe(player.externalId);
    const edited = await api(server.url, "PATCH", `/api/players/${player.pk}`, { token: team.developerToken, body: { external_id: "renamed-kid" } });
    expect(edited.status).toBe(200);
    expect((await getPlayer(team.developerToken, player.pk)).body.external_id).toBe("renamed-kid");
    expect((await api(server.url, "DELETE", `/api/players/${player.pk}`, { token: team.developerToken })).status).toBe(204);
    expect((await getPlayer(team.developerToken, player.pk)).status).toBe(404);
  });

  it("answers the player's row as another connection just wrote it", async () => {
    const player = await createPlayer(server, team);
    expect((await getPlayer(team.developerToken, player.pk)).body.external_id).toBe(player.externalId);
    const other = new Database(join(server.dir, "hoot.db"));
    try {
      other.query("UPDATE players SET external_id = 'changed-elsewhere' WHERE id = ?").run(player.pk);
    } finally {
      other.close();
    }
    expect((await getPlayer(team.developerToken, player.pk)).body.external_id).toBe("changed-elsewhere");
  });
});

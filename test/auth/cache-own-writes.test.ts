/**
 * On SQLite the reads every request makes are cached (src/db/sqlite/read-cache.ts). Under real traffic every
 * `GET /api/players/{pk}` writes an audit row and every turn writes history; those writes touch no table the
 * cache reads, so they keep its entries, while this process's writes to players or credentials and another
 * process's writes (`hoot admin`) still take effect on the very next request.
 */
import { beforeAll, describe, expect, it } from "bun:test";
import { recordTurn } from "../../src/conversations/service.ts";
import type { Db } from "../../src/db/client.ts";
import { readCache } from "../../src/db/sqlite/read-cache.ts";
import { runHoot } from "../helpers/process.ts";
import { api, createPlayer, login, serverForFile, TEST_SECRET } from "../helpers/server.ts";

const file = serverForFile({}, { backend: "sqlite" });
let cached: () => number;

beforeAll(() => {
  const raw = file.server.deps.database.raw;
  if (raw.kind !== "sqlite") throw new Error("this file runs on SQLite");
  cached = () => readCache(raw.db as Db).size;
});

const getPlayer = (token: string, pk: number) => api(file.server.url, "GET", `/api/players/${pk}`, { token });

/** Two players, each read once with the developer's token: the cache then holds the token's and both players' rows. */
async function warmTwo() {
  const { server, team } = file;
  const mia = await createPlayer(server, team);
  const leo = await createPlayer(server, team);
  expect((await getPlayer(team.developerToken, mia.pk)).status).toBe(200);
  expect((await getPlayer(team.developerToken, leo.pk)).status).toBe(200);
  // Once more, now that nothing else is being written: what is held is exactly what the two reads need.
  expect((await getPlayer(team.developerToken, mia.pk)).status).toBe(200);
  expect((await getPlayer(team.developerToken, leo.pk)).status).toBe(200);
  return { mia, leo, held: cached() };
}

describe("the read cache under this process's own writes", () => {
  it("keeps leo's cached row while mia's reads write their audit rows and her turns write history and incidents", async () => {
    const { team } = file;
    const { mia, leo, held } = await warmTwo();
    expect(held).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < 10; i++) {
      expect((await getPlayer(team.developerToken, mia.pk)).status).toBe(200);
      await recordTurn(file.server.deps, mia.pk, `words ${i}`, `reply ${i}`);
      await file.server.deps.store.incidents.insert({
        teamId: team.teamId,
        playerId: mia.pk,
        sessionId: `s-${i}`,
        category: "test",
        action: "blocked",
        direction: "input",
        policy: "default",
      });
    }
    // Had any of those writes emptied the cache, only mia's request's entries would be back in it.
    expect(cached()).toBe(held);
    expect((await getPlayer(team.developerToken, leo.pk)).body.pk).toBe(leo.pk);
    const audit = await api(file.server.url, "GET", `/api/audit?player_pk=${mia.pk}&limit=1000`, { token: team.developerToken });
    expect(audit.body.audit).toHaveLength(12);
  });

  it("answers a player as this process just changed or deleted it", async () => {
    const { team } = file;
    const { mia, leo } = await warmTwo();
    const edited = await api(file.server.url, "PATCH", `/api/players/${leo.pk}`, { token: team.developerToken, body: { external_id: "leo-renamed" } });
    expect(edited.status).toBe(200);
    expect((await getPlayer(team.developerToken, mia.pk)).status).toBe(200);
    expect((await getPlayer(team.developerToken, leo.pk)).body.external_id).toBe("leo-renamed");
    // Deleted by this process: gone on the next read, though the reads in between wrote audit rows.
    expect((await api(file.server.url, "DELETE", `/api/players/${mia.pk}`, { token: team.developerToken })).status).toBe(204);
    expect((await getPlayer(team.developerToken, mia.pk)).status).toBe(404);
  });

  it("refuses the old developer token on the next request after this process rotated the key, among audited reads", async () => {
    const { team } = file;
    const { mia } = await warmTwo();
    const rotated = await api(file.server.url, "POST", "/api/users/me/api-key", { token: team.developerToken });
    expect(rotated.status).toBe(200);
    expect((await getPlayer(team.developerToken, mia.pk)).status).toBe(401);
    team.developerToken = (await login(file.server.url, { api_key: rotated.body.api_key })).access_token;
    team.developerKey = rotated.body.api_key;
    expect((await getPlayer(team.developerToken, mia.pk)).status).toBe(200);
  });

  it("refuses the developer token on the first request after `hoot admin` rotated it in another process, the cache warm with audited reads", async () => {
    const { server, team } = file;
    const { mia, leo } = await warmTwo();
    for (let i = 0; i < 5; i++) expect((await getPlayer(team.developerToken, leo.pk)).status).toBe(200);
    const rotated = await runHoot(["admin", "rotate-developer-key", "--email", `dev-${team.teamName}@example.com`], server.dir, {
      HOOT_DATA_DIR: server.dir,
      HOOT_SECRET_KEY: TEST_SECRET,
    });
    expect(rotated.code).toBe(0);
    expect((await getPlayer(team.developerToken, mia.pk)).status).toBe(401);
    team.developerToken = (await login(server.url, { api_key: JSON.parse(rotated.stdout).api_key })).access_token;
    expect((await getPlayer(team.developerToken, mia.pk)).status).toBe(200);
  }, 30_000);
});

/**
 * On PostgreSQL no node answers a credential check or a player's row from memory (the read cache is SQLite's
 * alone: docs/performance.md says why), so a change made through node A holds on node B at B's very next
 * request, without waiting for B to hear the revocation notice.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { api, createPlayer, createTeamFixture, login, type TeamFixture } from "../helpers/server.ts";
import { type Nodes, PG_AVAILABLE, startNodes } from "./nodes.ts";

describe.skipIf(!PG_AVAILABLE)("reads on a second node", () => {
  let cluster: Nodes;
  let team: TeamFixture;

  beforeAll(async () => {
    cluster = await startNodes(2);
    team = await createTeamFixture(cluster.nodes[0]!);
  });
  afterAll(() => cluster?.close());

  const url = (i: number) => cluster.nodes[i]!.url;

  it("refuses the old developer token on node B at its next request after the key was rotated through node A", async () => {
    const player = await createPlayer(cluster.nodes[0]!, team);
    expect((await api(url(1), "GET", `/api/players/${player.pk}`, { token: team.developerToken })).status).toBe(200);
    expect((await api(url(1), "GET", `/api/players/${player.pk}`, { token: team.developerToken })).status).toBe(200);

    const rotated = await api(url(0), "POST", "/api/users/me/api-key", { token: team.developerToken });
    expect(rotated.status).toBe(200);
    expect((await api(url(1), "GET", `/api/players/${player.pk}`, { token: team.developerToken })).status).toBe(401);
    team.developerToken = (await login(url(1), { api_key: rotated.body.api_key })).access_token;
  });

  it("answers node A's change to a player's row on node B at its next request, and 404 once A deleted it", async () => {
    const player = await createPlayer(cluster.nodes[0]!, team);
    expect((await api(url(1), "GET", `/api/players/${player.pk}`, { token: team.developerToken })).body.external_id).toBe(player.externalId);
    const edited = await api(url(0), "PATCH", `/api/players/${player.pk}`, { token: team.developerToken, body: { external_id: "renamed-on-a" } });
    expect(edited.status).toBe(200);
    expect((await api(url(1), "GET", `/api/players/${player.pk}`, { token: team.developerToken })).body.external_id).toBe("renamed-on-a");
    expect((await api(url(0), "DELETE", `/api/players/${player.pk}`, { token: team.developerToken })).status).toBe(204);
    expect((await api(url(1), "GET", `/api/players/${player.pk}`, { token: team.developerToken })).status).toBe(404);
  });
});

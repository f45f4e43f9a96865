import { describe, expect, it } from "bun:test";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, login, serverForFile } from "../helpers/server.ts";

const file = serverForFile();

const sql = (text: string, ...params: unknown[]) => rawSql(file.server.deps.database, text, ...params);
const call = (method: string, path: string, body?: unknown, token = file.team.developerToken) => api(file.server.url, method, path, { token, body });

describe("players", () => {
  it("creates a player with a secret federated id and returns it in get", async () => {
    const created = await call("POST", "/api/players", { external_id: "mia@example.com" });
    expect(created.status).toBe(201);
    expect(created.body.external_id).toBe("mia@example.com");
    expect(created.body.federated_id).toMatch(/^hoot_dev_fid_[0-9A-Za-z]{38}$/);
    const got = await call("GET", `/api/players/${created.body.pk}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const [row] = await sql("SELECT team_id AS team FROM players WHERE id = ?", created.body.pk);
    expect(row!.team).toBe(file.team.teamId);
  });

  it("refuses a duplicate external_id in the same team with 409 and writes nothing", async () => {
    await call("POST", "/api/players", { external_id: "dup" });
    const count = async () => (await sql("SELECT id FROM players")).length;
    const before = await count();
    const again = await call("POST", "/api/players", { external_id: "dup" });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("external_id_taken");
    expect(await count()).toBe(before);
  });

  it("lets another team use the same external_id", async () => {
    const other = await createTeamFixture(file.server);
    await call("POST", "/api/players", { external_id: "shared-name" });
    const res = await call("POST", "/api/players", { external_id: "shared-name" }, other.developerToken);
    expect(res.status).toBe(201);
  });

  it("accepts the developer API key itself as the Bearer value for creating players", async () => {
    const res = await call("POST", "/api/players", { external_id: "by-key" }, file.team.developerKey);
    expect(res.status).toBe(201);
  });

  it("lists players at /api/players/ and /api/players with pagination, without external ids", async () => {
    const fresh = await createTeamFixture(file.server);
    const made: number[] = [];
    for (let i = 0; i < 5; i++) made.push((await call("POST", "/api/players", { external_id: `p${i}` }, fresh.developerToken)).body.pk);
    const all = await call("GET", "/api/players/", undefined, fresh.developerToken);
    expect(all.status).toBe(200);
    expect(all.body.players.map((p: { pk: number }) => p.pk)).toEqual(made);
    expect(Object.keys(all.body.players[0]).sort()).toEqual(["federated_id", "pk"]);
    expect(all.body.next).toBeNull();
    const noSlash = await call("GET", "/api/players", undefined, fresh.developerToken);
    expect(noSlash.body).toEqual(all.body);

    const page1 = await call("GET", "/api/players/?limit=2", undefined, fresh.developerToken);
    expect(page1.body.players.map((p: { pk: number }) => p.pk)).toEqual(made.slice(0, 2));
    const page2 = await call("GET", `/api/players/?limit=2&after=${page1.body.next}`, undefined, fresh.developerToken);
    expect(page2.body.players.map((p: { pk: number }) => p.pk)).toEqual(made.slice(2, 4));
    const page3 = await call("GET", `/api/players/?limit=2&after=${page2.body.next}`, undefined, fresh.developerToken);
    expect(page3.body.players.map((p: { pk: number }) => p.pk)).toEqual(made.slice(4));
    expect(page3.body.next).toBeNull();
  });

  it("refuses bad list parameters with 400", async () => {
    expect((await call("GET", "/api/players/?limit=0")).status).toBe(400);
    expect((await call("GET", "/api/players/?limit=1001")).status).toBe(400);
    expect((await call("GET", "/api/players/?limit=abc")).status).toBe(400);
    const cursor = await call("GET", "/api/players/?after=bogus");
    expect(cursor.status).toBe(400);
    expect(cursor.body.code).toBe("invalid_cursor");
    expect((await call("GET", "/api/players/?sort=name")).status).toBe(400);
  });

  it("edits a player's external_id with PATCH and refuses a taken one", async () => {
    const a = await call("POST", "/api/players", { external_id: "edit-a" });
    await call("POST", "/api/players", { external_id: "edit-b" });
    const edited = await call("PATCH", `/api/players/${a.body.pk}`, { external_id: "edit-c" });
    expect(edited.status).toBe(200);
    expect(edited.body.external_id).toBe("edit-c");
    expect(edited.body.federated_id).toBe(a.body.federated_id);
    const taken = await call("PATCH", `/api/players/${a.body.pk}`, { external_id: "edit-b" });
    expect(taken.status).toBe(409);
    expect((await call("GET", `/api/players/${a.body.pk}`)).body.external_id).toBe("edit-c");
    expect((await call("PATCH", `/api/players/${a.body.pk}`, { federated_id: "x" })).status).toBe(400);
  });

  it("deletes a player with their conversation in one go and answers 404 afterwards", async () => {
    const p = await createPlayer(file.server, file.team);
    await file.server.deps.store.conversations.append(p.pk, [
      { role: "user", sealed: file.server.deps.textCipher.seal("hello", p.pk, "user") },
      { role: "assistant", sealed: file.server.deps.textCipher.seal("hi!", p.pk, "assistant") },
    ]);
    expect(await sql("SELECT id FROM conversation_messages WHERE player_id = ?", p.pk)).toHaveLength(2);
    const res = await call("DELETE", `/api/players/${p.pk}`);
    expect(res.status).toBe(204);
    expect(await sql("SELECT id FROM players WHERE id = ?", p.pk)).toHaveLength(0);
    expect(await sql("SELECT id FROM conversation_messages WHERE player_id = ?", p.pk)).toHaveLength(0);
    expect((await call("GET", `/api/players/${p.pk}`)).status).toBe(404);
    expect((await call("DELETE", `/api/players/${p.pk}`)).status).toBe(404);
  });

  it("resets a federated id: the new one logs in, the old one and its tokens do not", async () => {
    const p = await createPlayer(file.server, file.team);
    const reset = await call("POST", `/api/players/${p.pk}/reset-federated-id`);
    expect(reset.status).toBe(200);
    expect(reset.body.federated_id).not.toBe(p.federatedId);
    const old = await api(file.server.url, "POST", "/api/auth/login", { body: { api_key: file.team.publicKey, federated_id: p.federatedId } });
    expect(old.status).toBe(401);
    await login(file.server.url, { api_key: file.team.publicKey, federated_id: reset.body.federated_id });
  });

  it("refuses non-numeric and out-of-range ids with 400", async () => {
    for (const id of ["abc", "-1", "0", "1.5", "99999999999999999999"]) {
      const res = await call("GET", `/api/players/${id}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("invalid_path");
    }
  });

  it("refuses a body over the size limit with 413", async () => {
    const res = await call("POST", "/api/players", { external_id: "x".repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
  });

  it("requires a token and answers 401 without one", async () => {
    const res = await api(file.server.url, "GET", "/api/players/");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("echoes a well-formed x-request-id and replaces a malformed one", async () => {
    const res = await api(file.server.url, "GET", "/api/health", { headers: { "x-request-id": "abc-123" } });
    expect(res.headers.get("x-request-id")).toBe("abc-123");
    const bad = await api(file.server.url, "GET", "/api/health", { headers: { "x-request-id": "bad id with spaces" } });
    expect(bad.headers.get("x-request-id")).not.toBe("bad id with spaces");
  });
});

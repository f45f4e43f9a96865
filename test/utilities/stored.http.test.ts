/**
 * Stored configurations and utilities over HTTP: create, list, read (latest and `name@v2`), a new version per
 * PUT, delete, checks that name the field, team isolation (another team's names are 404), and the rows written.
 */
import { describe, expect, it } from "bun:test";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, serverForFile } from "../helpers/server.ts";

const file = serverForFile();
const OWL = { prompt: "You are Ollie the owl.", temperature: 0.4 };
const CATS = { type: "classify", classification_question: "Did the user mention cats?", answers: ["yes", "no"] };

const rows = (teamId: number, name: string) =>
  rawSql(file.server.deps.database, "SELECT version, kind FROM stored_configs WHERE team_id = ? AND name = ? ORDER BY version", teamId, name);

describe("/api/configs", () => {
  it("stores version 1, adds a version per PUT, reads the latest or a version, lists, deletes", async () => {
    const token = file.team.developerToken;
    const created = await api(file.server.url, "POST", "/api/configs", { token, body: { name: "owl", config: OWL, description: "our owl" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "owl", version: 1, latest_version: 1, description: "our owl", config: OWL });
    expect(created.headers.get("cache-control")).toBe("no-store");

    const put = await api(file.server.url, "PUT", "/api/configs/owl", { token, body: { config: { ...OWL, temperature: 0.9 } } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: "owl", version: 2, latest_version: 2, description: null });
    expect(await rows(file.team.teamId, "owl")).toEqual([
      { version: 1, kind: "config" },
      { version: 2, kind: "config" },
    ]);

    expect((await api(file.server.url, "GET", "/api/configs/owl", { token })).body).toMatchObject({ version: 2, config: { temperature: 0.9 } });
    for (const ref of ["owl@v1", "owl@1", "owl%40v1"]) {
      const v1 = await api(file.server.url, "GET", `/api/configs/${ref}`, { token });
      expect({ ref, status: v1.status, body: v1.body }).toMatchObject({ ref, status: 200, body: { version: 1, latest_version: 2, config: OWL } });
    }
    expect((await api(file.server.url, "GET", "/api/configs/owl@latest", { token })).body.version).toBe(2);
    expect((await api(file.server.url, "GET", "/api/configs/owl@v3", { token })).status).toBe(404);

    const list = await api(file.server.url, "GET", "/api/configs", { token });
    expect(list.status).toBe(200);
    expect(list.body.configs.find((c: { name: string }) => c.name === "owl")).toMatchObject({ name: "owl", latest_version: 2, description: null });

    expect((await api(file.server.url, "DELETE", "/api/configs/owl", { token })).status).toBe(204);
    expect(await rows(file.team.teamId, "owl")).toEqual([]);
    expect((await api(file.server.url, "GET", "/api/configs/owl", { token })).status).toBe(404);
    expect((await api(file.server.url, "DELETE", "/api/configs/owl", { token })).status).toBe(404);
  });

  it("creates a new name with PUT (201) and refuses POST of an existing name (409 name_taken)", async () => {
    const token = file.team.developerToken;
    expect((await api(file.server.url, "PUT", "/api/configs/fresh", { token, body: { config: { prompt: "p" } } })).status).toBe(201);
    const again = await api(file.server.url, "POST", "/api/configs", { token, body: { name: "fresh", config: { prompt: "q" } } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("name_taken");
    expect(await rows(file.team.teamId, "fresh")).toHaveLength(1);
  });

  it("stores partial configurations with references, and refuses bad ones with a sentence naming the field", async () => {
    const token = file.team.developerToken;
    const partial = await api(file.server.url, "POST", "/api/configs", { token, body: { name: "voice-only", config: { voice_profile: { speed: 0.9 } } } });
    expect(partial.status).toBe(201);
    const refs = await api(file.server.url, "POST", "/api/configs", {
      token,
      body: { name: "with-refs", config: { prompt: { reference: "owl@v2" }, utilities: { cats: { reference: "cats" }, dogs: "dogs@v1", gone: null } } },
    });
    expect(refs.status).toBe(201);
    const bad: [unknown, string][] = [
      [{ prompt: "x", temperature: 7 }, 'Field "config.temperature" must be at most 2'],
      [{ prompt: "x", colour: "red" }, 'Unknown field "config.colour"'],
      [{ prompt: { reference: "bad name!" } }, 'Field "config.prompt": "bad name!" is not a reference'],
      [{ utilities: { u: { type: "classify", answers: ["a"] } } }, 'Field "config.utilities.u.classification_question" is required'],
      [{ reference: "owl" }, 'Field "config" must be a configuration object, not a reference'],
    ];
    for (const [config, sentence] of bad) {
      const res = await api(file.server.url, "POST", "/api/configs", { token, body: { name: "bad", config } });
      expect({ status: res.status, code: res.body.code, error: res.body.error }).toMatchObject({ status: 400, code: "invalid_request" });
      expect(res.body.error).toContain(sentence);
    }
    expect(await rows(file.team.teamId, "bad")).toEqual([]);
  });

  it("refuses bad names, reserved names, writes to a version, and unknown fields", async () => {
    const token = file.team.developerToken;
    expect((await api(file.server.url, "POST", "/api/configs", { token, body: { name: "default", config: { prompt: "p" } } })).status).toBe(400);
    expect((await api(file.server.url, "POST", "/api/configs", { token, body: { name: "has space", config: { prompt: "p" } } })).status).toBe(400);
    expect((await api(file.server.url, "POST", "/api/configs", { token, body: { name: "__proto__", config: { prompt: "p" } } })).status).toBe(400);
    expect((await api(file.server.url, "POST", "/api/configs", { token, body: { name: "ok", config: { prompt: "p" }, extra: 1 } })).status).toBe(400);
    await api(file.server.url, "POST", "/api/configs", { token, body: { name: "versioned", config: { prompt: "p" } } });
    const put = await api(file.server.url, "PUT", "/api/configs/versioned@v1", { token, body: { config: { prompt: "q" } } });
    expect(put.status).toBe(400);
    expect(put.body.error).toContain("names a version");
    expect((await api(file.server.url, "DELETE", "/api/configs/versioned@v1", { token })).status).toBe(400);
    expect(await rows(file.team.teamId, "versioned")).toHaveLength(1);
  });

  it("keeps each team's names to itself: another team's are 404, and the same name may exist in both", async () => {
    const other = await createTeamFixture(file.server);
    await api(file.server.url, "POST", "/api/configs", { token: file.team.developerToken, body: { name: "secret-owl", config: OWL } });
    for (const method of ["GET", "DELETE"]) {
      const res = await api(file.server.url, method, "/api/configs/secret-owl", { token: other.developerToken });
      expect({ method, status: res.status }).toEqual({ method, status: 404 });
    }
    for (const version of ["secret-owl@v1", "secret-owl@latest"])
      expect((await api(file.server.url, "GET", `/api/configs/${version}`, { token: other.developerToken })).status).toBe(404);
    expect((await api(file.server.url, "GET", "/api/configs", { token: other.developerToken })).body.configs).toEqual([]);
    // A PUT by the other team creates its own name; ours is untouched.
    expect((await api(file.server.url, "PUT", "/api/configs/secret-owl", { token: other.developerToken, body: { config: { prompt: "theirs" } } })).status).toBe(
      201,
    );
    expect((await api(file.server.url, "GET", "/api/configs/secret-owl", { token: file.team.developerToken })).body).toMatchObject({ version: 1, config: OWL });
  });

  it("answers 401 without a token and 403 to service and player tokens", async () => {
    expect((await api(file.server.url, "GET", "/api/configs")).status).toBe(401);
    const service = (await api(file.server.url, "POST", "/api/auth/login", { body: { api_key: file.team.backendKey } })).body.access_token;
    expect((await api(file.server.url, "GET", "/api/configs", { token: service })).status).toBe(403);
    const player = await createPlayer(file.server, file.team);
    expect((await api(file.server.url, "GET", "/api/utilities", { token: player.token })).status).toBe(403);
  });
});

describe("/api/utilities", () => {
  it("stores, versions, reads and deletes utilities, and checks them like set_configuration", async () => {
    const token = file.team.developerToken;
    const created = await api(file.server.url, "POST", "/api/utilities", { token, body: { name: "cats", utility: CATS } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "cats", version: 1, utility: CATS });
    const v2 = await api(file.server.url, "PUT", "/api/utilities/cats", { token, body: { utility: { ...CATS, answers: ["yes", "no", "maybe"] } } });
    expect(v2.body).toMatchObject({ version: 2 });
    expect((await api(file.server.url, "GET", "/api/utilities/cats@v1", { token })).body.utility).toEqual(CATS);
    expect((await api(file.server.url, "GET", "/api/utilities", { token })).body.utilities).toContainEqual(
      expect.objectContaining({ name: "cats", latest_version: 2 }),
    );
    const bad = await api(file.server.url, "POST", "/api/utilities", {
      token,
      body: { name: "bad", utility: { type: "classify", classification_question: "q", answers: ["a", "a"] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('Field "utility.answers": "a" is listed twice');
    expect((await api(file.server.url, "DELETE", "/api/utilities/cats", { token })).status).toBe(204);
    expect(await rows(file.team.teamId, "cats")).toEqual([]);
  });

  it("are listed in the OpenAPI document", async () => {
    const doc = await api(file.server.url, "GET", "/api/openapi.json");
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(["/api/configs", "/api/configs/{name}", "/api/utilities", "/api/utilities/{name}"]));
  });
});

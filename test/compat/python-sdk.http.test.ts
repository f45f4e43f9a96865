/**
 * The HTTP half of the hosted engine's Python SDK (uglabs/ug-python-sdk: client/client.py and
 * client/admin_client.py), replayed request by request as httpx 0.28 sends it: compact JSON, every keyword
 * argument present (None as null), no body on GET and DELETE, `Authorization: Bearer <token>` once logged
 * in. Each method below is named after the SDK method it replays and returns what that method returns;
 * the SDK raises on any status outside 2xx (PermissionError for 401/403, ValueError for 400/404).
 * The socket half of the same flows belongs beside it in python-sdk.ws.test.ts.
 */
import { describe, expect, it } from "bun:test";
import { generateKey } from "../../src/auth/keys.ts";
import { createOperatorKey } from "../../src/operator/service.ts";
import { rawSql } from "../helpers/database.ts";
import { serverForFile } from "../helpers/server.ts";

const file = serverForFile();

class SdkError extends Error {
  constructor(
    readonly status: number,
    readonly kind: "PermissionError" | "ValueError" | "RuntimeError",
    message: string,
  ) {
    super(message);
  }
}

/** The SDK's Client (with `admin`), speaking HTTP exactly as it does. */
class PythonClient {
  accessToken: string | null = null;
  readonly admin = new AdminClient(this);
  constructor(readonly url: string) {}

  async request(method: string, path: string, json?: Record<string, unknown>): Promise<any> {
    const headers: Record<string, string> = { accept: "*/*", "accept-encoding": "gzip, deflate", "user-agent": "python-httpx/0.28.1" };
    if (this.accessToken) headers.authorization = `Bearer ${this.accessToken}`;
    let body: string | undefined;
    if (json !== undefined) {
      body = JSON.stringify(json);
      headers["content-type"] = "application/json";
    }
    const response = await fetch(`${this.url}${path}`, { method, headers, body });
    if (response.status < 200 || response.status > 299) {
      const data = await response.json();
      const kind =
        response.status === 400 || response.status === 404
          ? "ValueError"
          : response.status === 401 || response.status === 403
            ? "PermissionError"
            : "RuntimeError";
      throw new SdkError(response.status, kind, `${method} ${path} failed with ${response.status}: ${data.error}`);
    }
    if (response.status === 204) return {};
    return response.json();
  }

  async login(api_key: string, team_name: string | null = null, federated_id: string | null = null) {
    const result = await this.request("POST", "/api/auth/login", { api_key, team_name, federated_id });
    this.accessToken = result.access_token;
  }
  listTeams = async () => (await this.request("GET", "/api/teams")).teams;
  listPolicies = async () => (await this.request("GET", "/api/policies")).policies;
  getServiceAccounts = () => this.request("GET", "/api/users/service_accounts");
  getMe = () => this.request("GET", "/api/users/me");
  updateMe = (name: string | null = null) => this.request("PATCH", "/api/users/me", { name });
  deleteMe = () => this.request("DELETE", "/api/users/me");
  createUser = (name: string, email: string | null = null, user_type = "user") => this.request("POST", "/api/users", { name, email, user_type });
  listPlayers = async () => (await this.request("GET", "/api/players")).players;
  createPlayer = (external_id: string) => this.request("POST", "/api/players", { external_id });
  getPlayer = (pk: number) => this.request("GET", `/api/players/${pk}`);
  deletePlayer = (pk: number) => this.request("DELETE", `/api/players/${pk}`);
}

/** The SDK's AdminClient: the operator routes. */
class AdminClient {
  constructor(private readonly client: PythonClient) {}
  getSettings = async () => (await this.client.request("GET", "/api/settings")).settings;
  listTeams = async () => (await this.client.request("GET", "/api/teams")).teams;
  createTeam = async (name: string) => (await this.client.request("POST", "/api/teams", { name })).team;
  getTeam = async (pk: number) => (await this.client.request("GET", `/api/teams/${pk}`)).team;
  updateTeam = async (pk: number, name: string | null = null) => (await this.client.request("PATCH", `/api/teams/${pk}`, { name })).team;
  deleteTeam = (pk: number) => this.client.request("DELETE", `/api/teams/${pk}`);
  listUsers = async () => (await this.client.request("GET", "/api/users")).users;
  getUser = async (pk: number) => (await this.client.request("GET", `/api/users/${pk}`)).user;
  updateUser = async (pk: number, name: string | null = null) => (await this.client.request("PATCH", `/api/users/${pk}`, { name })).user;
  deleteUser = (pk: number) => this.client.request("DELETE", `/api/users/${pk}`);
  // `_post` with no keyword arguments still sends a JSON body: {}. The SDK returns None: the answer is not read.
  addUserToTeam = (userPk: number, teamPk: number) => this.client.request("POST", `/api/users/${userPk}/teams/${teamPk}`, {});
  removeUserFromTeam = (userPk: number, teamPk: number) => this.client.request("DELETE", `/api/users/${userPk}/teams/${teamPk}`);
}

const client = () => new PythonClient(file.server.url);
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: SdkError) => error,
  );

async function developer() {
  const c = client();
  await c.login(file.team.developerKey);
  return c;
}

async function operator() {
  const c = client();
  await c.login((await createOperatorKey(file.server.deps, `ops-${crypto.randomUUID().slice(0, 8)}`)).api_key);
  return c;
}

describe("Python SDK: login", () => {
  it("logs a developer in with team_name and federated_id sent as null", async () => {
    const c = await developer();
    expect(c.accessToken?.split(".")).toHaveLength(3);
    expect((await c.getMe()).email).toBe(`dev-${file.team.teamName}@example.com`);
  });

  it("logs a developer in with team_name", async () => {
    const c = client();
    await c.login(file.team.developerKey, file.team.teamName);
    expect(await c.listTeams()).toEqual([{ pk: file.team.teamId, name: file.team.teamName }]);
  });

  it("logs a playerCreate service account in, and a player in with the service key and federated_id", async () => {
    const backend = client();
    await backend.login(file.team.backendKey);
    const created = await backend.createPlayer(`py-${Date.now()}`);
    const player = client();
    await player.login(file.team.publicKey, null, created.federated_id);
    expect(player.accessToken?.split(".")).toHaveLength(3);
  });

  it("raises PermissionError with the one 401 body for a wrong key, an empty key and another team's player", async () => {
    const otherTeamPlayer = generateKey("fid", "dev");
    for (const [key, fid] of [
      [generateKey("dk", "dev"), null],
      ["", null],
      ["not a key", null],
      [file.team.publicKey, otherTeamPlayer],
    ] as const) {
      const error = await refusal(client().login(key, null, fid));
      expect(error).toBeInstanceOf(SdkError);
      expect(error!.status).toBe(401);
      expect(error!.kind).toBe("PermissionError");
      expect(error!.message).toEndWith("Authentication failed: the credential is missing, invalid, expired or revoked.");
    }
  });
});

describe("Python SDK: a developer's calls", () => {
  it("lists policies with default naming the strictest built-in children's policy", async () => {
    const policies = await (await developer()).listPolicies();
    const names = policies.map((p: { name: string }) => p.name);
    expect(names).toContain("default");
    expect(names).toContain("children_strict");
    const fallback = policies.find((p: { name: string }) => p.name === "default");
    expect(fallback).toEqual({ name: "default", description: expect.stringContaining("children_strict"), builtin: true });
  });

  it("creates playerLogin and playerCreate service accounts with create_user and lists them", async () => {
    const c = await developer();
    const login = await c.createUser(`py-app-${Date.now()}`, null, "playerLogin");
    expect(login).toEqual({
      pk: expect.any(Number),
      name: expect.stringMatching(/^py-app-/),
      user_type: "playerLogin",
      api_key: expect.stringMatching(/^hoot_dev_sk_/),
    });
    const backend = await c.createUser(`py-backend-${Date.now()}`, null, "playerCreate");
    expect(backend.user_type).toBe("playerCreate");
    const listed = (await c.getServiceAccounts()).service_accounts;
    expect(listed).toContainEqual({ pk: login.pk, name: login.name, user_type: "playerLogin", created_at: expect.any(String) });
    expect(listed).toContainEqual({ pk: backend.pk, name: backend.name, user_type: "playerCreate", created_at: expect.any(String) });
    // The keys work: the playerCreate one gets a service token.
    await client().login(backend.api_key);
    const player = await (await developer()).createPlayer(`via-py-key-${Date.now()}`);
    await client().login(login.api_key, null, player.federated_id);
  });

  it("invites a developer to the team by e-mail with create_user's default user_type (no account, no key)", async () => {
    const email = `py-new-${Date.now()}@example.com`;
    const added = await (await developer()).createUser("Grace", email);
    expect(added).toEqual({ email, invited: true });
    const invited = await rawSql(file.server.deps.database, "SELECT team_id FROM console_invitations WHERE email = ?", email);
    expect(invited).toEqual([{ team_id: file.team.teamId }]);
    expect(await rawSql(file.server.deps.database, "SELECT id FROM users WHERE email = ?", email)).toEqual([]);
  });

  it("reads get_me, renames with update_me, keeps the name for update_me() and refuses delete_me", async () => {
    const c = await developer();
    const me = await c.getMe();
    expect(Object.keys(me).sort()).toEqual(["api_key", "email", "name", "pk", "teams"]);
    expect((await c.updateMe("Ada Lovelace")).name).toBe("Ada Lovelace");
    expect((await c.updateMe()).name).toBe("Ada Lovelace");
    const refused = await refusal(c.deleteMe());
    expect(refused?.status).toBe(403);
    expect((await c.getMe()).pk).toBe(me.pk);
  });

  it("creates, lists, reads and deletes players", async () => {
    const c = await developer();
    const created = await c.createPlayer(`py-kid-${Date.now()}`);
    expect(created).toEqual({
      pk: expect.any(Number),
      external_id: expect.stringMatching(/^py-kid-/),
      federated_id: expect.stringMatching(/^hoot_dev_fid_/),
      consent: "none",
      consent_updated_at: null,
    });
    expect(await c.listPlayers()).toContainEqual({ pk: created.pk, federated_id: created.federated_id });
    expect(await c.getPlayer(created.pk)).toEqual(created);
    expect(await c.deletePlayer(created.pk)).toEqual({});
    expect((await refusal(c.getPlayer(created.pk)))?.kind).toBe("ValueError");
  });

  it("gets PermissionError on every admin call", async () => {
    const c = await developer();
    for (const call of [
      () => c.admin.getSettings(),
      () => c.admin.listUsers(),
      () => c.admin.createTeam("nope"),
      () => c.admin.getTeam(file.team.teamId),
      () => c.admin.deleteUser(1),
    ]) {
      const error = await refusal(call());
      expect(error?.status).toBe(403);
      expect(error?.kind).toBe("PermissionError");
    }
  });
});

describe("Python SDK: the admin client with an operator key", () => {
  it("reads the settings without any secret value", async () => {
    const settings = await (await operator()).admin.getSettings();
    expect(settings.env).toBe("dev");
    expect(settings.secret_key).toBe("[set]");
    expect(JSON.stringify(settings)).not.toContain(Buffer.alloc(32, 7).toString("base64"));
  });

  it("creates, reads, renames, lists and deletes a team", async () => {
    const ops = await operator();
    const name = `py-team-${Date.now()}`;
    const team = await ops.admin.createTeam(name);
    expect(team).toEqual({ pk: expect.any(Number), name, created_at: expect.any(String), require_consent: false });
    expect(await ops.admin.getTeam(team.pk)).toEqual(team);
    expect((await ops.admin.updateTeam(team.pk, `${name}-renamed`)).name).toBe(`${name}-renamed`);
    expect((await ops.admin.updateTeam(team.pk)).name).toBe(`${name}-renamed`);
    expect(await ops.admin.listTeams()).toContainEqual({ pk: team.pk, name: `${name}-renamed` });
    expect(await ops.admin.deleteTeam(team.pk)).toEqual({});
    expect((await refusal(ops.admin.getTeam(team.pk)))?.status).toBe(404);
  });

  it("lists, reads, renames, moves between teams and deletes a developer", async () => {
    const ops = await operator();
    const team = await ops.admin.createTeam(`py-members-${Date.now()}`);
    const dev = await ops.createUser("Linus", `py-linus-${Date.now()}@example.com`);
    expect(dev).toEqual({
      pk: expect.any(Number),
      name: "Linus",
      email: expect.stringMatching(/^py-linus-/),
      user_type: "user",
      api_key: expect.stringMatching(/^hoot_dev_dk_/),
    });
    const listed = await ops.admin.listUsers();
    expect(listed).toContainEqual({ pk: dev.pk, name: "Linus", email: dev.email, user_type: "user", teams: [], created_at: expect.any(String) });
    await ops.admin.addUserToTeam(dev.pk, team.pk);
    expect((await ops.admin.getUser(dev.pk)).teams).toEqual([{ pk: team.pk, name: team.name }]);
    expect((await ops.admin.updateUser(dev.pk, "Linus T")).name).toBe("Linus T");
    const linus = client();
    await linus.login(dev.api_key);
    expect(await linus.listTeams()).toEqual([{ pk: team.pk, name: team.name }]);
    expect(await ops.admin.removeUserFromTeam(dev.pk, team.pk)).toEqual({});
    // Removed from the team: the token made for it stops at once.
    expect((await refusal(linus.listTeams()))?.status).toBe(401);
    expect(await ops.admin.deleteUser(dev.pk)).toEqual({});
    expect((await refusal(ops.admin.getUser(dev.pk)))?.status).toBe(404);
    expect((await refusal(client().login(dev.api_key)))?.status).toBe(401);
  });

  it("gets PermissionError on a developer's routes", async () => {
    const ops = await operator();
    for (const call of [() => ops.getMe(), () => ops.listPlayers(), () => ops.getServiceAccounts()]) expect((await refusal(call()))?.status).toBe(403);
  });

  it("deleting a team ends its players' and service accounts' credentials", async () => {
    const ops = await operator();
    const team = await ops.admin.createTeam(`py-doomed-${Date.now()}`);
    const dev = await ops.createUser("Doomed", `py-doomed-${Date.now()}@example.com`);
    await ops.admin.addUserToTeam(dev.pk, team.pk);
    const d = client();
    await d.login(dev.api_key);
    const app = await d.createUser("doomed-app", null, "playerLogin");
    const kid = await d.createPlayer("doomed-kid");
    await client().login(app.api_key, null, kid.federated_id);
    await ops.admin.deleteTeam(team.pk);
    expect((await refusal(client().login(app.api_key, null, kid.federated_id)))?.status).toBe(401);
    expect((await refusal(d.listPlayers()))?.status).toBe(401);
  });
});

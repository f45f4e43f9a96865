/**
 * Starts the real hoot server for a test: port 0 on 127.0.0.1, a real SQLite file in a fresh temp folder,
 * JSON logs captured in memory so tests can assert what was (not) logged.
 */
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { loadConfig, type Config } from "../../src/config.ts";
import { startServer, type RunningServer, type ServerOptions } from "../../src/server.ts";
import { createTeam } from "../../src/teams/service.ts";
import { createDeveloper } from "../../src/users/service.ts";
import { createServiceAccount } from "../../src/service-accounts/service.ts";

export const TEST_SECRET = Buffer.alloc(32, 7).toString("base64");

export interface TestServer extends RunningServer {
  dir: string;
  config: Config;
  /** Every log line written so far. */
  logs: string[];
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

/** A running server with `env` settings on top of test defaults. */
export async function startTestServer(env: Record<string, string> = {}, options: ServerOptions & { dir?: string } = {}): Promise<TestServer> {
  // A given folder is the caller's (a restart test reuses it): it is kept on close.
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "hoot-test-"));
  const config = loadConfig({
    HOOT_HOST: "127.0.0.1",
    HOOT_PORT: "0",
    HOOT_DATA_DIR: dir,
    HOOT_SECRET_KEY: TEST_SECRET,
    HOOT_LOG_LEVEL: "info",
    HOOT_LOCAL_TOKENS_PER_SECOND: "0",
    // High, so tests that fail logins on purpose do not trip the limiter; the limiter test sets its own.
    HOOT_LOGIN_FAILURES_PER_MINUTE: "1000",
    // A busy CI machine must not make speech admission refuse audio that tests expect (the admission test sets its own).
    HOOT_TTS_MAX_LAG_MS: "60000",
    ...env,
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const server = await startServer(config, { logDestination: destination, ...options });
  return {
    ...server,
    dir,
    config,
    logs,
    async close() {
      await server.stop();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TeamFixture {
  teamId: number;
  teamName: string;
  developerKey: string;
  developerToken: string;
  /** Login-only service key (safe to embed in apps). */
  publicKey: string;
  /** playerCreate service key. */
  backendKey: string;
  publicKeyPk: number;
  backendKeyPk: number;
}

let counter = 0;

/** Creates a team with a developer and two service accounts through the services, and logs the developer in. */
export async function createTeamFixture(server: RunningServer, name = `team-${++counter}-${Date.now()}`): Promise<TeamFixture> {
  const deps = server.deps;
  const team = createTeam(deps, name);
  const dev = createDeveloper(deps, { teamName: name, email: `dev-${name}@example.com`, name: `Dev ${name}` });
  const pub = createServiceAccount(deps, team.id, "app", false);
  const backend = createServiceAccount(deps, team.id, "backend", true);
  const developerToken = (await login(server.url, { api_key: dev.apiKey! })).access_token;
  return {
    teamId: team.id,
    teamName: name,
    developerKey: dev.apiKey!,
    developerToken,
    publicKey: pub.api_key,
    backendKey: backend.api_key,
    publicKeyPk: pub.pk,
    backendKeyPk: backend.pk,
  };
}

/** POST /api/auth/login; throws unless 200. */
export async function login(url: string, body: Record<string, string>): Promise<{ access_token: string; expires_in: number; token_type: string }> {
  const res = await fetch(`${url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; expires_in: number; token_type: string };
}

/** A JSON request; returns status, parsed body (or null) and headers. */
export async function api(
  url: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${url}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Creates a player as the fixture's developer and logs them in with the public key. */
export async function createPlayer(server: RunningServer, team: TeamFixture, externalId = `kid-${++counter}`) {
  const created = await api(server.url, "POST", "/api/players", { token: team.developerToken, body: { external_id: externalId } });
  if (created.status !== 201) throw new Error(`create player: ${created.status} ${JSON.stringify(created.body)}`);
  const token = (await login(server.url, { api_key: team.publicKey, federated_id: created.body.federated_id })).access_token;
  return { pk: created.body.pk as number, federatedId: created.body.federated_id as string, externalId, token };
}

/**
 * One server with one team for a whole test file: started in beforeAll, closed in afterAll. Read
 * `.server` and `.team` inside tests (they are set once setup has run).
 */
export function serverForFile(env: Record<string, string> = {}): { server: TestServer; team: TeamFixture } {
  const shared = {} as { server: TestServer; team: TeamFixture };
  beforeAll(async () => {
    shared.server = await startTestServer(env);
    shared.team = await createTeamFixture(shared.server);
  });
  afterAll(() => shared.server.close());
  return shared;
}

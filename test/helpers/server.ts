/**
 * Starts the real hoot server for a test: port 0 on 127.0.0.1, a real SQLite file in a fresh temp folder (or,
 * in the PostgreSQL pass, a fresh database on the test cluster: see database.ts), JSON logs captured in memory
 * so tests can assert what was (not) logged.
 */
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { type RunningServer, type ServerOptions, startServer } from "../../src/boot/server.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { createServiceAccount } from "../../src/service-accounts/service.ts";
import { createTeam } from "../../src/teams/service.ts";
import { createDeveloper } from "../../src/users/service.ts";
import { type Backend, createPgDatabase, SERVER_BACKEND } from "./database.ts";

export const TEST_SECRET = Buffer.alloc(32, 7).toString("base64");

export interface TestServer extends RunningServer {
  dir: string;
  /** The database this server runs on. */
  backend: Backend;
  config: Config;
  /** Every log line written so far. */
  logs: string[];
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

// A restart test starts a second server on the first one's folder: it gets the first one's database too.
const pgDatabaseOfDir = new Map<string, string>();

/**
 * A running server with `env` settings on top of test defaults, on this pass's backend unless `backend` says
 * otherwise (a test of something only SQLite has asks for "sqlite").
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: ServerOptions & { dir?: string; backend?: Backend } = {},
): Promise<TestServer> {
  // A given folder is the caller's (a restart test reuses it): it is kept on close.
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "hoot-test-"));
  const backend = options.backend ?? SERVER_BACKEND;
  let dropDatabase: (() => Promise<void>) | null = null;
  const databaseEnv: Record<string, string> = {};
  if (backend === "postgres" && env.HOOT_DATABASE_URL === undefined) {
    let url = pgDatabaseOfDir.get(dir);
    if (url === undefined) {
      const created = await createPgDatabase();
      url = created.url;
      if (options.dir) pgDatabaseOfDir.set(dir, url);
      else dropDatabase = created.drop;
    }
    databaseEnv.HOOT_DATABASE_URL = url;
  }
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
    ...databaseEnv,
    ...env,
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  let server: RunningServer;
  try {
    server = await startServer(config, { logDestination: destination, ...options });
  } catch (error) {
    await dropDatabase?.();
    throw error;
  }
  return {
    ...server,
    dir,
    backend: config.databaseUrl === null ? "sqlite" : "postgres",
    config,
    logs,
    async close() {
      await server.stop();
      await dropDatabase?.();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The settings a `hoot admin …` child process needs to reach this server's database. */
export function databaseEnv(server: { config: Config }): Record<string, string> {
  return server.config.databaseUrl ? { HOOT_DATABASE_URL: server.config.databaseUrl } : {};
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
  const team = await createTeam(deps, name);
  const dev = await createDeveloper(deps, { teamName: name, email: `dev-${name}@example.com`, name: `Dev ${name}` });
  const pub = await createServiceAccount(deps, team.id, "app", false);
  const backend = await createServiceAccount(deps, team.id, "backend", true);
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
export function serverForFile(env: Record<string, string> = {}, options: { backend?: Backend } = {}): { server: TestServer; team: TeamFixture } {
  const shared = {} as { server: TestServer; team: TeamFixture };
  beforeAll(async () => {
    shared.server = await startTestServer(env, options);
    shared.team = await createTeamFixture(shared.server);
  });
  afterAll(() => shared.server.close());
  return shared;
}

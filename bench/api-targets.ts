/**
 * hoot's hot HTTP paths as wrk targets, for any server speaking hoot's API (hoot itself, the Fastify peer, or
 * later a load balancer in front of several nodes): logs the developer in, creates a player, checks every
 * request shape answers as it should once, and returns the targets. Also the Fastify peer's setup.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { WrkTarget } from "./wrk.ts";

export const PEER_DIR = join(import.meta.dir, "peers/fastify");

/**
 * Creates `count` players (external ids `${prefix}-0`, ...) on the server at `url` with the dev bootstrap's keys in
 * `credentialsFile`, and logs each in: their player tokens.
 * @example const tokens = await playerTokens(server.url, join(dir, "data/dev-credentials.json"), 100)
 */
export async function playerTokens(url: string, credentialsFile: string, count: number, prefix = "bench"): Promise<string[]> {
  const creds = JSON.parse(readFileSync(credentialsFile, "utf8")) as { developer_api_key: string; service_account_api_key: string };
  const json = { "content-type": "application/json" };
  const post = async (path: string, body: unknown, token?: string) =>
    (await (
      await fetch(`${url}${path}`, { method: "POST", headers: token ? { ...json, authorization: `Bearer ${token}` } : json, body: JSON.stringify(body) })
    ).json()) as Record<string, unknown>;
  const devToken = String((await post("/api/auth/login", { api_key: creds.developer_api_key })).access_token);
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const player = await post("/api/players", { external_id: `${prefix}-${i}` }, devToken);
    tokens.push(String((await post("/api/auth/login", { api_key: creds.service_account_api_key, federated_id: player.federated_id })).access_token));
  }
  return tokens;
}

export interface ApiTargets {
  get: WrkTarget;
  loginDeveloper: WrkTarget;
  loginPlayer: WrkTarget;
  createPlayer: WrkTarget;
}

/** The four targets for the server at `url`, whose dev credentials (developer and playerCreate service keys) are in `credentialsFile`. */
export async function apiTargets(server: string, url: string, credentialsFile: string): Promise<ApiTargets> {
  const creds = JSON.parse(readFileSync(credentialsFile, "utf8")) as { developer_api_key: string; service_account_api_key: string };
  const json = { "content-type": "application/json" };
  const login = async (body: unknown) => {
    const res = await fetch(`${url}/api/auth/login`, { method: "POST", headers: json, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${server}: login answered ${res.status}: ${await res.text()}`);
    return String(((await res.json()) as { access_token: string }).access_token);
  };
  const devLogin = { api_key: creds.developer_api_key };
  const token = await login(devLogin);
  const auth = { ...json, authorization: `Bearer ${token}` };
  const made = await fetch(`${url}/api/players`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ external_id: `bench-player-${crypto.randomUUID()}` }),
  });
  if (made.status !== 201) throw new Error(`${server}: POST /api/players answered ${made.status}: ${await made.text()}`);
  const player = (await made.json()) as { pk: number; federated_id: string };
  const playerLogin = { api_key: creds.service_account_api_key, federated_id: player.federated_id };
  await login(playerLogin);
  const got = await fetch(`${url}/api/players/${player.pk}`, { headers: auth });
  const body = (await got.json()) as { pk?: number; federated_id?: string };
  if (got.status !== 200 || body.pk !== player.pk || body.federated_id !== player.federated_id)
    throw new Error(`${server}: GET /api/players/{pk} answered ${got.status}`);
  return {
    get: { name: "GET /api/players/{pk}", server, url, path: `/api/players/${player.pk}`, method: "GET", headers: { authorization: `Bearer ${token}` } },
    loginDeveloper: {
      name: "POST /api/auth/login (developer)",
      server,
      url,
      path: "/api/auth/login",
      method: "POST",
      headers: json,
      body: JSON.stringify(devLogin),
    },
    loginPlayer: {
      name: "POST /api/auth/login (player)",
      server,
      url,
      path: "/api/auth/login",
      method: "POST",
      headers: json,
      body: JSON.stringify(playerLogin),
    },
    createPlayer: {
      name: "POST /api/players",
      server,
      url,
      path: "/api/players",
      method: "POST",
      headers: auth,
      body: JSON.stringify({ external_id: "b-{n}" }),
    },
  };
}

/** "ok" when the Fastify peer can run (installing its packages with `npm ci` when missing), else why not. */
export async function preparePeer(): Promise<string> {
  const npm = Bun.which("npm");
  if (!Bun.which("node") || !npm) return "skipped: node and npm are needed for the peer";
  if (existsSync(join(PEER_DIR, "node_modules/better-sqlite3/build/Release/better_sqlite3.node")) && existsSync(join(PEER_DIR, "node_modules/fastify")))
    return "ok";
  process.stderr.write("installing the Fastify peer's packages (npm ci in bench/peers/fastify; better-sqlite3 compiles from source, about a minute)…\n");
  // build_from_source: better-sqlite3's installer would otherwise try to download a prebuilt binary first.
  const proc = Bun.spawn([npm, "ci", "--no-audit", "--no-fund"], {
    cwd: PEER_DIR,
    env: { ...process.env, npm_config_build_from_source: "true" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) {
    process.stderr.write(out + err);
    return `skipped: npm ci failed in ${PEER_DIR} (exit ${code}; building better-sqlite3 needs a C++ compiler, make and python3)`;
  }
  return "ok";
}

/** The peer's command line (run it pinned with machine.ts's `pinned`); it reads PEER_DATA_DIR, PEER_HOST, PEER_PORT. */
export function peerCommand(): string[] {
  return [Bun.which("node")!, join(PEER_DIR, "server.js")];
}

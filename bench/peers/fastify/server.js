/**
 * The peer `bun run bench:http` compares hoot with: the same HTTP endpoints written the obvious way on Node
 * with Fastify, better-sqlite3 and jsonwebtoken, doing the same duties hoot does on each request, so a
 * ratio says something about hoot and not about skipped work:
 *   - keys in hoot's format (`hoot_<env>_<kind>_<body><crc32 check>`), parsed and checksummed before any lookup;
 *   - secrets stored only as AES-256-GCM ciphertext plus an HMAC-SHA256 lookup hash (sub-keys from one master
 *     secret by HKDF); a presented key is found by its keyed hash, decrypted and compared in constant time;
 *   - HS256 access tokens with `exp` (and typ/sub/tid/ver claims), algorithm pinned, claims checked;
 *   - on every authenticated request the version of the credential that minted the token is read from the
 *     database (revocation is immediate, as in hoot);
 *   - the failed-login limiter is consulted on every login (client address and key buckets);
 *   - JSON bodies validated by schema (unknown properties refused, not stripped); errors as `{error, code}`;
 *   - an x-request-id header and Prometheus request count and duration on every request;
 *   - SQLite in WAL mode with the same pragmas and schema (indexes included) as hoot.
 * It is a benchmark peer, not a product: one team, no admin routes, no logging (hoot runs at level warn too).
 *
 * Settings (environment): PEER_DATA_DIR (required; dev-credentials.json is written there on first run, like
 * hoot's), PEER_HOST (127.0.0.1), PEER_PORT (0). Prints `listening on http://host:port` on stderr.
 */
import Fastify from "fastify";
import Database from "better-sqlite3";
import jwt from "jsonwebtoken";
import client from "prom-client";
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";

const dataDir = process.env.PEER_DATA_DIR;
if (!dataDir) throw new Error("PEER_DATA_DIR is required");
mkdirSync(dataDir, { recursive: true });
const ENV = "dev";
const TOKEN_TTL = 3600;
const CLOCK_TOLERANCE = 30;
const LOGIN_FAILURES_PER_MINUTE = 100_000;

// ---- secrets ---------------------------------------------------------------------------------------------
const keyFile = join(dataDir, "secret.key");
if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(32).toString("base64") + "\n", { mode: 0o600 });
const master = Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64");
const derive = (info) => Buffer.from(hkdfSync("sha256", master, "hoot", info, 32));
// A KeyObject made once: given raw bytes, jsonwebtoken first tries them as a public key on every call
// (~450 µs a token here against ~9 µs), and hoot imports its key once too.
const tokenKey = createSecretKey(derive("access-token-hs256"));
const encKey = derive("credential-encryption");
const hashKey = derive("credential-lookup");

function encrypt(plain) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encKey, iv);
  return Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
}
function decrypt(sealed) {
  if (sealed.length < 28) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", encKey, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
const lookupHash = (plain) => createHmac("sha256", hashKey).update(plain).digest("hex");
function safeEqual(a, b) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// ---- keys (same format and checks as hoot's src/auth/keys.ts) -------------------------------------------
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = /^hoot_([a-z][a-z0-9]{0,15})_(dk|sk|fid)_([0-9A-Za-z]{38})$/;
function toBase62(value, length) {
  let out = "";
  let n = value;
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}
const checksum = (text) => toBase62(BigInt(crc32(text)), 6);
function generateKey(kind) {
  let n = 0n;
  for (const b of randomBytes(24)) n = (n << 8n) | BigInt(b);
  const head = `hoot_${ENV}_${kind}_${toBase62(n, 32)}`;
  return head + checksum(head);
}
function keyKind(value) {
  const match = KEY_PATTERN.exec(value);
  if (!match || checksum(value.slice(0, -6)) !== value.slice(-6)) return null;
  if (match[1] !== ENV) throw new AppError(401, "wrong_environment", `This key belongs to the "${match[1]}" environment; this server is "${ENV}".`);
  return match[2];
}

// ---- errors ----------------------------------------------------------------------------------------------
class AppError extends Error {
  constructor(status, code, message, headers = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}
const unauthorized = () => new AppError(401, "unauthorized", "Authentication failed: the credential is missing, invalid, expired or revoked.");
const forbidden = (message = "This credential is not allowed to do that.") => new AppError(403, "permission_denied", message);

// ---- database (hoot's schema and pragmas) ----------------------------------------------------------------
const db = new Database(join(dataDir, "peer.db"));
db.pragma("journal_mode = WAL");
db.pragma("foreign_keys = ON");
db.pragma("busy_timeout = 5000");
db.pragma("synchronous = NORMAL");
db.exec(`
CREATE TABLE IF NOT EXISTS teams (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL DEFAULT (unixepoch('subsec') * 1000));
CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE,
  api_key_enc BLOB NOT NULL, api_key_hash TEXT NOT NULL UNIQUE, key_version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL DEFAULT (unixepoch('subsec') * 1000));
CREATE TABLE IF NOT EXISTS team_members (team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL DEFAULT (unixepoch('subsec') * 1000), PRIMARY KEY (team_id, user_id));
CREATE INDEX IF NOT EXISTS team_members_user ON team_members (user_id, team_id);
CREATE TABLE IF NOT EXISTS service_accounts (id INTEGER PRIMARY KEY AUTOINCREMENT,
  team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE, name TEXT NOT NULL,
  player_create INTEGER NOT NULL DEFAULT 0, key_enc BLOB NOT NULL, key_hash TEXT NOT NULL UNIQUE,
  version INTEGER NOT NULL DEFAULT 1, created_at INTEGER NOT NULL DEFAULT (unixepoch('subsec') * 1000));
CREATE UNIQUE INDEX IF NOT EXISTS service_accounts_team_name ON service_accounts (team_id, name);
CREATE TABLE IF NOT EXISTS players (id INTEGER PRIMARY KEY AUTOINCREMENT,
  team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE, external_id TEXT NOT NULL,
  federated_id_enc BLOB NOT NULL, federated_id_hash TEXT NOT NULL UNIQUE, version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL DEFAULT (unixepoch('subsec') * 1000));
CREATE UNIQUE INDEX IF NOT EXISTS players_team_external ON players (team_id, external_id);
`);

const q = {
  userByHash: db.prepare("SELECT id, api_key_enc, key_version FROM users WHERE api_key_hash = ?"),
  userVersion: db.prepare("SELECT key_version FROM users WHERE id = ?").pluck(),
  teamsOfUser: db.prepare("SELECT team_id FROM team_members WHERE user_id = ? ORDER BY team_id").pluck(),
  saByHash: db.prepare("SELECT id, team_id, player_create, key_enc, version FROM service_accounts WHERE key_hash = ?"),
  saState: db.prepare("SELECT team_id, player_create, version FROM service_accounts WHERE id = ?"),
  playerByHash: db.prepare("SELECT id, team_id, federated_id_enc, version FROM players WHERE federated_id_hash = ?"),
  playerState: db.prepare("SELECT team_id, version FROM players WHERE id = ?"),
  playerInTeam: db.prepare("SELECT id, external_id, federated_id_enc FROM players WHERE id = ? AND team_id = ?"),
  insertPlayer: db.prepare("INSERT INTO players (team_id, external_id, federated_id_enc, federated_id_hash) VALUES (?, ?, ?, ?) RETURNING id"),
};

// First run: one team, a developer and a playerCreate service account, as hoot's dev bootstrap does.
if (db.prepare("SELECT id FROM teams LIMIT 1").get() === undefined) {
  const dk = generateKey("dk");
  const sk = generateKey("sk");
  db.transaction(() => {
    const team = db.prepare("INSERT INTO teams (name) VALUES ('dev') RETURNING id").get();
    const user = db.prepare("INSERT INTO users (name, email, api_key_enc, api_key_hash) VALUES ('Developer', 'dev@peer.local', ?, ?) RETURNING id").get(encrypt(dk), lookupHash(dk));
    db.prepare("INSERT INTO team_members (team_id, user_id) VALUES (?, ?)").run(team.id, user.id);
    db.prepare("INSERT INTO service_accounts (team_id, name, player_create, key_enc, key_hash) VALUES (?, 'dev-app', 1, ?, ?)").run(team.id, encrypt(sk), lookupHash(sk));
  })();
  writeFileSync(join(dataDir, "dev-credentials.json"), JSON.stringify({ team: "dev", developer_api_key: dk, service_account_api_key: sk }, null, 2) + "\n", { mode: 0o600 });
}

// ---- credentials and tokens ------------------------------------------------------------------------------
const matches = (presented, sealed) => {
  const stored = decrypt(sealed);
  return stored !== null && safeEqual(stored, presented);
};
function developerByKey(key) {
  if (keyKind(key) !== "dk") return null;
  const user = q.userByHash.get(lookupHash(key));
  return user && matches(key, user.api_key_enc) ? user : null;
}
function serviceAccountByKey(key) {
  if (keyKind(key) !== "sk") return null;
  const sa = q.saByHash.get(lookupHash(key));
  return sa && matches(key, sa.key_enc) ? sa : null;
}
function playerByFederatedId(fid) {
  if (keyKind(fid) !== "fid") return null;
  const player = q.playerByHash.get(lookupHash(fid));
  return player && matches(fid, player.federated_id_enc) ? player : null;
}

const issue = (claims) => ({
  access_token: jwt.sign({ ...claims, jti: randomUUID() }, tokenKey, { algorithm: "HS256", expiresIn: TOKEN_TTL }),
  expires_in: TOKEN_TTL,
  token_type: "Bearer",
});

/** The caller behind a verified token whose credential is still current, else null (checked on every use). */
function callerFromToken(token) {
  if (token.length > 4096) return null;
  let c;
  try {
    c = jwt.verify(token, tokenKey, { algorithms: ["HS256"], clockTolerance: CLOCK_TOLERANCE });
  } catch {
    return null;
  }
  const validClaims =
    typeof c === "object" && typeof c.exp === "number" && ["developer", "service", "player"].includes(c.typ) &&
    typeof c.sub === "string" && /^[0-9]{1,15}$/.test(c.sub) && Number.isInteger(c.tid) && c.tid >= 1 && Number.isInteger(c.ver) && c.ver >= 1;
  if (!validClaims) return null;
  const id = Number(c.sub);
  if (c.typ === "developer") return q.userVersion.get(id) === c.ver ? { kind: "developer", teamId: c.tid } : null;
  if (c.typ === "service") {
    const sa = q.saState.get(id);
    return sa && sa.version === c.ver && sa.player_create === 1 && sa.team_id === c.tid ? { kind: "service", teamId: c.tid } : null;
  }
  const player = q.playerState.get(id);
  if (!player || player.version !== c.ver || player.team_id !== c.tid) return null;
  if (!Number.isInteger(c.sa) || q.saState.get(c.sa)?.team_id !== c.tid) return null;
  return { kind: "player", teamId: c.tid };
}

// ---- failed-login limiter (fixed one-minute windows, as hoot's) ----------------------------------------
const windows = new Map();
function retryAfter(key, now = Date.now()) {
  const w = windows.get(key);
  if (!w || now - w.start >= 60_000 || w.failures < LOGIN_FAILURES_PER_MINUTE) return 0;
  return (w.start + 60_000 - now) / 1000;
}
function recordFailure(key, now = Date.now()) {
  const w = windows.get(key);
  if (!w || now - w.start >= 60_000) windows.set(key, { start: now, failures: 1 });
  else w.failures++;
}

// ---- metrics ---------------------------------------------------------------------------------------------
const registry = new client.Registry();
const httpRequests = new client.Counter({ name: "peer_http_requests_total", help: "requests", labelNames: ["method", "route", "status"], registers: [registry] });
const httpDuration = new client.Histogram({ name: "peer_http_request_duration_seconds", help: "durations", labelNames: ["method", "route"], registers: [registry] });

// ---- the app ---------------------------------------------------------------------------------------------
const app = Fastify({
  logger: false,
  bodyLimit: 1024 * 1024,
  genReqId: (req) => {
    const incoming = req.headers["x-request-id"];
    return typeof incoming === "string" && /^[A-Za-z0-9._-]{1,128}$/.test(incoming) ? incoming : randomUUID();
  },
  // Refuse unknown properties instead of silently stripping them (Fastify's default), as hoot does.
  ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
});

app.addHook("onRequest", async (req, reply) => {
  req.startedAt = performance.now();
  reply.header("x-request-id", req.id);
});
app.addHook("onResponse", async (req, reply) => {
  const route = req.routeOptions.url ?? "unmatched";
  httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
  httpDuration.observe({ method: req.method, route }, (performance.now() - req.startedAt) / 1000);
});
app.setErrorHandler((error, req, reply) => {
  if (error instanceof AppError) return reply.code(error.status).headers(error.headers).send({ error: error.message, code: error.code });
  if (error.validation) return reply.code(400).send({ error: `The request ${error.validationContext ?? "body"} is not valid: ${error.message}`, code: "invalid_request" });
  if (error.statusCode === 415) return reply.code(415).send({ error: "Send the body as JSON with Content-Type: application/json.", code: "unsupported_media_type" });
  if (error.statusCode === 413) return reply.code(413).send({ error: "The request body is too large.", code: "payload_too_large" });
  if (error.statusCode === 400) return reply.code(400).send({ error: "The request body is not valid JSON.", code: "invalid_json" });
  return reply.code(500).send({ error: "Internal error.", code: "internal" });
});
app.setNotFoundHandler((req, reply) => reply.code(404).send({ error: "No such route.", code: "not_found" }));

/** Resolves the bearer to a developer or service caller (players only use the socket), else throws 401/403. */
function authenticate(req, allowed) {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  const bearer = match?.[1];
  let caller = null;
  if (bearer?.startsWith("hoot_")) {
    if (!allowed.includes("developer-key")) throw unauthorized();
    const bucket = `ip:${req.ip}`;
    const wait = retryAfter(bucket);
    if (wait > 0) throw new AppError(429, "too_many_requests", "Too many failed attempts; try again later.", { "retry-after": String(Math.ceil(wait)) });
    const user = developerByKey(bearer);
    const teams = user ? q.teamsOfUser.all(user.id) : [];
    if (teams.length > 1) throw new AppError(400, "team_name_required", "This developer key belongs to several teams.");
    caller = teams.length === 1 ? { kind: "developer", teamId: teams[0] } : null;
    if (!caller) recordFailure(bucket);
  } else if (bearer) {
    caller = callerFromToken(bearer);
  }
  if (!caller) throw unauthorized();
  if (caller.kind === "player") throw forbidden("Player tokens are only for the interact websocket.");
  if (!allowed.includes(caller.kind)) throw forbidden();
  return caller;
}

const loginBody = {
  type: "object",
  additionalProperties: false,
  required: ["api_key"],
  properties: {
    api_key: { type: "string", minLength: 1, maxLength: 256 },
    federated_id: { type: "string", minLength: 1, maxLength: 256 },
    team_name: { type: "string", minLength: 1, maxLength: 100 },
  },
};
const loginResponse = {
  200: { type: "object", properties: { access_token: { type: "string" }, expires_in: { type: "integer" }, token_type: { type: "string" } } },
};
const playerResponse = { type: "object", properties: { pk: { type: "integer" }, external_id: { type: "string" }, federated_id: { type: "string" } } };

app.post("/api/auth/login", { schema: { body: loginBody, response: loginResponse } }, async (req) => {
  const body = req.body;
  const client = `ip:${req.ip}`;
  const keyBucket = body.federated_id !== undefined ? `fid:${lookupHash(body.federated_id)}` : `key:${lookupHash(body.api_key)}`;
  if (Math.max(retryAfter(client), retryAfter(keyBucket)) > 0) throw new AppError(429, "too_many_requests", "Too many failed attempts; try again later.");
  try {
    const kind = keyKind(body.api_key);
    if (kind === "dk") {
      if (body.federated_id !== undefined) throw new AppError(400, "invalid_request", "federated_id goes with a service account key, not a developer key.");
      const user = developerByKey(body.api_key);
      if (!user) throw unauthorized();
      const teams = q.teamsOfUser.all(user.id);
      if (teams.length !== 1) throw new AppError(400, "team_name_required", "Say which team with team_name.");
      return issue({ typ: "developer", sub: String(user.id), tid: teams[0], ver: user.key_version });
    }
    if (kind === "sk") {
      const sa = serviceAccountByKey(body.api_key);
      if (!sa) throw unauthorized();
      if (body.federated_id === undefined) {
        if (sa.player_create !== 1) throw forbidden("This service account key may only log players in.");
        return issue({ typ: "service", sub: String(sa.id), tid: sa.team_id, ver: sa.version });
      }
      const player = playerByFederatedId(body.federated_id);
      if (!player || player.team_id !== sa.team_id) throw unauthorized();
      return issue({ typ: "player", sub: String(player.id), tid: player.team_id, ver: player.version, sa: sa.id });
    }
    throw unauthorized();
  } catch (error) {
    if (error instanceof AppError && (error.status === 401 || error.status === 403)) {
      recordFailure(client);
      recordFailure(keyBucket);
    }
    throw error;
  }
});

app.post(
  "/api/players",
  { schema: { body: { type: "object", additionalProperties: false, required: ["external_id"], properties: { external_id: { type: "string", minLength: 1, maxLength: 256 } } }, response: { 201: playerResponse } } },
  async (req, reply) => {
    const caller = authenticate(req, ["developer", "service", "developer-key"]);
    const fid = generateKey("fid");
    try {
      const row = q.insertPlayer.get(caller.teamId, req.body.external_id, encrypt(fid), lookupHash(fid));
      return reply.code(201).send({ pk: row.id, external_id: req.body.external_id, federated_id: fid });
    } catch (error) {
      if (/UNIQUE constraint failed/.test(String(error?.message))) throw new AppError(409, "external_id_taken", "A player with this external_id already exists in the team.");
      throw error;
    }
  },
);

app.get(
  "/api/players/:player_pk",
  { schema: { params: { type: "object", properties: { player_pk: { type: "string", pattern: "^[1-9][0-9]{0,14}$" } } }, response: { 200: playerResponse } } },
  async (req) => {
    const caller = authenticate(req, ["developer"]);
    const player = q.playerInTeam.get(Number(req.params.player_pk), caller.teamId);
    if (!player) throw new AppError(404, "not_found", "No such player.");
    const fid = decrypt(player.federated_id_enc);
    if (fid === null) throw new Error("stored federated id cannot be decrypted");
    return { pk: player.id, external_id: player.external_id, federated_id: fid };
  },
);

app.get("/metrics", async (req, reply) => reply.type(registry.contentType).send(await registry.metrics()));

const address = await app.listen({ host: process.env.PEER_HOST ?? "127.0.0.1", port: Number(process.env.PEER_PORT ?? 0) });
process.stderr.write(`listening on ${address}\n`);
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, async () => {
    await app.close();
    db.close();
    process.exit(0);
  });
}

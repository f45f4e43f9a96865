/**
 * Property (issue 24): no 4xx answer quotes a regex, a schema or an internal name. Whatever a client sends to
 * the routes whose fields have rules (names, ids, limits, cursors, stored configurations), with or without a
 * credential, the sentence says the rule in words: it never holds `^`, `$`, `[a-z` or a schema keyword.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import fc from "fast-check";
import { api, createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";
import { fuzzRuns, hostileString } from "./helpers.ts";

let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  server = await startTestServer({ HOOT_LOG_LEVEL: "warn", HOOT_LOGIN_FAILURES_PER_MINUTE: "100000" });
  team = await createTeamFixture(server);
});
afterAll(() => server.close());

const SCHEMA_WORDS =
  /\b(minLength|maxLength|minItems|maxItems|minProperties|maxProperties|additionalProperties|patternProperties|anyOf|allOf|oneOf|exclusiveMinimum|exclusiveMaximum|multipleOf|pattern|schema|typebox|elysia|expected|\$ref|ValueError|t\.String|Type\.)\b/i;

/** Null when `text` (a 4xx body) is words only; else what it leaked. */
function schemaLeak(text: string): string | null {
  if (text.includes("^") || text.includes("$") || text.toLowerCase().includes("[a-z")) return `quotes a pattern: ${text}`;
  // A field name the client sent may be named in quotes ("Unknown field \"pattern\""): that is its own word, not ours.
  const sentence = text.replace(/\\"[A-Za-z0-9_.-]{1,64}\\"/g, '""');
  const word = SCHEMA_WORDS.exec(sentence);
  return word ? `names a schema keyword (${word[0]}): ${text}` : null;
}

const name = fc.oneof(
  hostileString,
  fc.constantFrom("Ollie", "ollie_2", "-bad", ".x", "a b", "A".repeat(101), "owl@v2", "owl@latest", "owl@v0", "default", "ÄÖ", ""),
);
const number = fc.oneof(fc.constantFrom("0", "-1", "abc", "1.5", "1e3", "99999999999999999999", ""), fc.integer().map(String));
const value = fc.oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));

const target = fc.oneof(
  fc.record({
    method: fc.constant("POST"),
    path: fc.constant("/api/configs"),
    body: fc.record(
      { name: fc.oneof(name, value), config: fc.oneof(value, fc.dictionary(hostileString, value, { maxKeys: 3 })), description: value },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    method: fc.constantFrom("GET", "PUT", "DELETE"),
    path: name.map((n) => `/api/configs/${encodeURIComponent(n)}`),
    body: fc.option(fc.record({ config: value, extra: value }, { requiredKeys: [] }), { nil: undefined }),
  }),
  fc.record({
    method: fc.constant("POST"),
    path: fc.constant("/api/utilities"),
    body: fc.record({ name: fc.oneof(name, value), utility: value }, { requiredKeys: [] }),
  }),
  fc.record({
    method: fc.constant("GET"),
    path: fc.tuple(number, number, hostileString).map(([pk, limit, after]) => `/api/safety/incidents?${new URLSearchParams({ player_pk: pk, limit, after })}`),
    body: fc.constant(undefined),
  }),
  fc.record({
    method: fc.constant("GET"),
    path: fc.tuple(number, hostileString).map(([limit, after]) => `/api/players?${new URLSearchParams({ limit, after })}`),
    body: fc.constant(undefined),
  }),
  fc.record({
    method: fc.constantFrom("GET", "PATCH", "DELETE"),
    path: number.map((pk) => `/api/players/${encodeURIComponent(pk)}`),
    body: fc.option(fc.record({ external_id: value }, { requiredKeys: [] }), { nil: undefined }),
  }),
  fc.record({ method: fc.constant("POST"), path: fc.constant("/api/players"), body: fc.record({ external_id: value, extra: value }, { requiredKeys: [] }) }),
  fc.record({
    method: fc.constant("POST"),
    path: fc.constant("/api/service-accounts"),
    body: fc.record({ name: fc.oneof(name, value), player_create: value, permissions: value }, { requiredKeys: [] }),
  }),
  fc.record({
    method: fc.constant("POST"),
    path: fc.constant("/api/users"),
    body: fc.record({ name: fc.oneof(name, value), email: value, user_type: value }, { requiredKeys: [] }),
  }),
  fc.record({
    method: fc.constantFrom("GET", "PUT", "DELETE"),
    path: name.map((n) => `/api/safety-policies/${encodeURIComponent(n)}`),
    body: fc.option(fc.dictionary(hostileString, value, { maxKeys: 3 }), { nil: undefined }),
  }),
  fc.record({
    method: fc.constantFrom("POST", "PUT"),
    path: fc.constantFrom(
      "/console/api/invitations",
      "/console/api/service-accounts",
      "/console/api/players",
      "/console/api/session/team",
      "/console/api/safety/policies",
    ),
    body: fc.dictionary(fc.constantFrom("email", "name", "team_pk", "external_id", "x"), value, { maxKeys: 3 }),
  }),
  fc.record({
    method: fc.constant("POST"),
    path: fc.constant("/api/auth/login"),
    body: fc.record({ api_key: value, team_name: value, federated_id: value }, { requiredKeys: [] }),
  }),
);

describe("4xx answers in words", () => {
  it("never quote a pattern, a schema keyword or an internal name, with or without a credential", async () => {
    await fc.assert(
      fc.asyncProperty(target, fc.boolean(), async (r, authenticated) => {
        const res = await api(server.url, r.method, r.path, {
          ...(authenticated ? { token: team.developerToken } : {}),
          ...(r.body !== undefined && r.method !== "GET" ? { body: r.body } : {}),
        });
        if (res.status < 400 || res.status >= 500) return;
        const text = JSON.stringify(res.body);
        expect({ where: `${r.method} ${r.path} -> ${res.status}`, leak: schemaLeak(text) }).toEqual({
          where: `${r.method} ${r.path} -> ${res.status}`,
          leak: null,
        });
      }),
      { numRuns: fuzzRuns(1500), endOnFailure: true },
    );
  }, 240_000);

  it("says a stored configuration's name rule with its real case, and answers 401 before validating a body or query", async () => {
    const bad = await api(server.url, "POST", "/api/configs", { token: team.developerToken, body: { name: "-owl", config: { prompt: "x" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(
      'Field "name" in the request body must be a name of 1 to 100 letters (upper or lower case), digits, "_", "." or "-", starting with a letter or digit.',
    );
    // The same name in upper case is fine.
    expect((await api(server.url, "POST", "/api/configs", { token: team.developerToken, body: { name: "Owl_Story", config: { prompt: "x" } } })).status).toBe(
      201,
    );

    const unauthorized = { error: "Authentication failed: the credential is missing, invalid, expired or revoked.", code: "unauthorized" };
    for (const [method, path, body] of [
      ["GET", "/api/safety/incidents?player_pk=abc", undefined],
      ["GET", "/api/players?limit=abc", undefined],
      ["POST", "/api/configs", { name: "-owl", config: 5 }],
      ["POST", "/api/players", { unknown: true }],
      ["PATCH", "/api/players/abc", { nope: 1 }],
    ] as const) {
      for (const token of [undefined, "not-a-token"]) {
        const res = await api(server.url, method, path, { ...(token ? { token } : {}), ...(body ? { body } : {}) });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 401, body: unauthorized });
      }
    }
    // The console's API, whose credential is the session cookie, answers the same way.
    for (const [method, path, body] of [
      ["POST", "/console/api/invitations", { email: 5, unknown: 1 }],
      ["POST", "/console/api/service-accounts", { nope: [] }],
      ["GET", "/console/api/players?limit=abc", undefined],
      ["DELETE", "/console/api/players/abc", undefined],
      ["PUT", "/console/api/session/team", { team_pk: "x" }],
    ] as const) {
      const res = await api(server.url, method, path, { headers: { origin: server.url, cookie: "hoot_console=not-a-session" }, ...(body ? { body } : {}) });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 401, code: "unauthorized" });
    }
  });

  it("words the interact socket's refusals too: a bad language code is described, not its pattern", async () => {
    const player = await createPlayer(server, team);
    const probe = await openSession(server.url, player.token);
    const answer = await probe.request("set_configuration", { config: { prompt: "x", language_code: "English!" } });
    expect(answer).toMatchObject({
      kind: "error",
      code: "invalid_configuration",
      error: 'field "config.language_code" must be a language code such as en or pt-BR',
    });
    probe.close();
  });
});

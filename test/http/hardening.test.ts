import { describe, expect, it } from "bun:test";
import { holdLocks } from "../helpers/database.ts";
import { rawPost, rawRequest, rawUpgrade } from "../helpers/raw-http.ts";
import { api, createPlayer, serverForFile, startTestServer } from "../helpers/server.ts";

const file = serverForFile();

const post = (body: string, path = "/api/auth/login") =>
  fetch(`${file.server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });

describe("deep JSON", () => {
  it("refuses 50,000 levels of nesting with 400 invalid_body, not 500", async () => {
    const res = await post("[".repeat(50_000) + "]".repeat(50_000));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.stringContaining("deeper than 32"), code: "invalid_body" });
  });

  it("refuses an unclosed 40 KB run of brackets, and objects nested 33 deep, the same way", async () => {
    const open = await post("[".repeat(40_000));
    expect(open.status).toBe(400);
    expect((await open.json()).code).toBe("invalid_body");
    const objects = await post('{"a":'.repeat(33) + "1" + "}".repeat(33));
    expect((await objects.json()).code).toBe("invalid_body");
  });

  it("counts only brackets outside strings, and accepts nesting up to the limit", async () => {
    const inString = await post(JSON.stringify({ api_key: "[{".repeat(100) }));
    expect(inString.status).toBe(401);
    const atLimit = await post("[".repeat(32) + "]".repeat(32));
    expect(await atLimit.json()).toEqual({ error: "The request body must be a JSON object with the documented fields.", code: "invalid_request" });
  });

  it("answers a body at the size limit that fails validation with one short sentence", async () => {
    // ~1 MB, 32 deep and wide: Elysia's own validation error would pretty-print all of it.
    const inner = "[" + Array(150_000).fill("0").join(",") + "]";
    const body = '{"api_key":' + "[".repeat(30) + inner + "]".repeat(30) + "}";
    expect(body.length).toBeLessThan(1024 * 1024);
    const res = await post(body);
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text.length).toBeLessThan(200);
    expect(JSON.parse(text)).toEqual({
      error: expect.stringMatching(/^Field "api_key" in the request body (must be|has) [a-z ]+\.$/),
      code: "invalid_request",
    });
    expect((await fetch(`${file.server.url}/api/health`)).status).toBe(200);
  });

  it("never echoes what the client sent: an odd field name is not repeated back", async () => {
    const res = await post(JSON.stringify({ api_key: "x", "<script>alert(1)</script>": true }));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toEqual({ error: "The request body has unknown fields.", code: "invalid_request" });
    const plain = await post(JSON.stringify({ api_key: "x", admin: true }));
    expect((await plain.json()).error).toBe('Unknown field "admin" in the request body.');
  });

  it("keeps the body-size limit as a 413, also when the body arrives chunked", async () => {
    const big = JSON.stringify({ api_key: "x".repeat(2 * 1024 * 1024) });
    const res = await post(big);
    expect(res.status).toBe(413);
    const chunked = await fetch(`${file.server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
    });
    expect(chunked.status).toBe(413);
    expect((await chunked.json()).code).toBe("payload_too_large");
  });
});

describe("names from the URL", () => {
  it.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"])("GET /docs/%s is a 404, not a 500", async (name) => {
    const res = await api(file.server.url, "GET", `/docs/${name}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "No such file.", code: "not_found" });
  });

  it("still serves the real docs assets", async () => {
    expect((await fetch(`${file.server.url}/docs/swagger-ui.css`)).status).toBe(200);
  });
});

describe("short Host headers (a service named api behind a proxy)", () => {
  it.each(["api", "web", "app:80", "a"])("Host: %s routes POST /api/players and the /interact upgrade", async (host) => {
    const made = await rawPost(
      file.server.port,
      "/api/players",
      host,
      { external_id: `host-${host}-${Date.now()}` },
      { authorization: `Bearer ${file.team.developerToken}` },
    );
    expect(made.status).toBe(201);
    expect(JSON.parse(made.body).federated_id).toMatch(/^hoot_dev_fid_/);
    const login = await rawPost(file.server.port, "/api/auth/login", host, { api_key: file.team.developerKey });
    expect(login.status).toBe(200);
    const upgrade = await rawUpgrade(file.server.port, "/interact", host);
    expect(upgrade.status).toBe(101);
  });
});

describe("another process holding the database's write lock", () => {
  it("keeps answering reads at once, and a write waits asynchronously, then succeeds when the lock is released", async () => {
    const server = file.server;
    const player = await createPlayer(server, file.team);
    const doomed = await createPlayer(server, file.team);
    // SQLite: the file's write lock; PostgreSQL: the team's and the doomed player's rows.
    const holder = await holdLocks(server.deps.database, { teams: [file.team.teamId], players: [doomed.pk] });
    const order: string[] = [];
    try {
      const write = api(server.url, "POST", "/api/players", { token: file.team.developerToken, body: { external_id: `locked-${Date.now()}` } }).then((r) => {
        order.push("write");
        return r;
      });
      const remove = api(server.url, "DELETE", `/api/players/${doomed.pk}`, { token: file.team.developerToken }).then((r) => {
        order.push("delete");
        return r;
      });
      await Bun.sleep(30);
      // While the write waits, the event loop is free: health, a read and a login all answer first.
      const health = await fetch(`${server.url}/api/health`);
      order.push("health");
      const read = await api(server.url, "GET", `/api/players/${player.pk}`, { token: file.team.developerToken });
      order.push("read");
      const login = await api(server.url, "POST", "/api/auth/login", { body: { api_key: file.team.developerKey } });
      order.push("login");
      expect([health.status, read.status, login.status]).toEqual([200, 200, 200]);
      await holder.release();
      const [written, removed] = await Promise.all([write, remove]);
      expect(written.status).toBe(201);
      expect(removed.status).toBe(204);
      expect(order.slice(0, 3)).toEqual(["health", "read", "login"]);
      expect(order.slice(3).sort()).toEqual(["delete", "write"]);
    } finally {
      await holder.release();
    }
  });

  it("answers a write 503 database_busy with Retry-After once the lock deadline passes, writing nothing", async () => {
    const server = await startTestServer({ HOOT_DB_LOCK_TIMEOUT_MS: "300" });
    const { createTeamFixture } = await import("../helpers/server.ts");
    const team = await createTeamFixture(server);
    const holder = await holdLocks(server.deps.database, { teams: [team.teamId] });
    try {
      let healthAnswered = false;
      const write = api(server.url, "POST", "/api/players", { token: team.developerToken, body: { external_id: "never-written" } });
      await Bun.sleep(20);
      await fetch(`${server.url}/api/health`).then(() => (healthAnswered = true));
      const res = await write;
      expect(healthAnswered).toBe(true);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: expect.stringContaining("busy"), code: "database_busy" });
      expect(res.headers.get("retry-after")).toBe("1");
    } finally {
      await holder.release();
    }
    const list = await api(server.url, "GET", "/api/players", { token: team.developerToken });
    expect(list.body.players).toEqual([]);
    await server.close();
  });
});

describe("CORS", () => {
  // Exactly what Chrome sends before the JS SDK's axios POSTs {api_key, federated_id} to /api/auth/login
  // with its default `Authorization: Bearer undefined` and `Content-Type: application/json`.
  const preflight = (url: string, path: string, origin: string) =>
    fetch(`${url}${path}`, {
      method: "OPTIONS",
      headers: {
        accept: "*/*",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
        origin,
        "sec-fetch-mode": "cors",
        "sec-fetch-site": "cross-site",
        "sec-fetch-dest": "empty",
        "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      },
    });

  it("answers the browser's login preflight from any origin, and the login itself names that origin", async () => {
    const origin = "http://localhost:5173";
    const res = await preflight(file.server.url, "/api/auth/login", origin);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(origin);
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = res.headers
      .get("access-control-allow-headers")!
      .split(",")
      .map((h) => h.trim());
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "x-request-id"]));
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();

    const login = await fetch(`${file.server.url}/api/auth/login`, {
      method: "POST",
      headers: { origin, "content-type": "application/json", authorization: "Bearer undefined" },
      body: JSON.stringify({ api_key: file.team.developerKey }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get("access-control-allow-origin")).toBe(origin);
    expect(login.headers.get("access-control-expose-headers")).toContain("x-request-id");
    // Errors carry it too, so the page can read why it failed.
    const refused = await fetch(`${file.server.url}/api/auth/login`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: '{"api_key":5}',
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("access-control-allow-origin")).toBe(origin);
    const health = await fetch(`${file.server.url}/api/health`, { headers: { origin: "https://game.example" } });
    expect(health.headers.get("access-control-allow-origin")).toBe("https://game.example");
  });

  it("gives developer endpoints no CORS for unlisted origins", async () => {
    const res = await preflight(file.server.url, "/api/players", "https://evil.example");
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(await res.json()).toEqual({ error: expect.stringContaining("HOOT_CORS_ORIGINS"), code: "origin_not_allowed" });
    const get = await fetch(`${file.server.url}/api/players`, {
      headers: { origin: "https://evil.example", authorization: `Bearer ${file.team.developerToken}` },
    });
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("allows developer endpoints for origins in HOOT_CORS_ORIGINS, and limits websocket upgrades with HOOT_WS_ORIGINS", async () => {
    const server = await startTestServer({ HOOT_CORS_ORIGINS: "https://console.example, http://localhost:5173", HOOT_WS_ORIGINS: "https://game.example" });
    try {
      const ok = await preflight(server.url, "/api/players", "https://console.example");
      expect(ok.status).toBe(204);
      expect(ok.headers.get("access-control-allow-origin")).toBe("https://console.example");
      expect((await preflight(server.url, "/api/players", "https://other.example")).status).toBe(403);

      expect((await rawUpgrade(server.port, "/interact", "127.0.0.1", "https://game.example")).status).toBe(101);
      // A native app sends no Origin and always gets in.
      expect((await rawUpgrade(server.port, "/interact", "127.0.0.1")).status).toBe(101);
      const refused = await rawUpgrade(server.port, "/interact", "127.0.0.1", "https://evil.example");
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({ error: expect.stringContaining("HOOT_WS_ORIGINS"), code: "origin_not_allowed" });
    } finally {
      await server.close();
    }
  });

  it("lets every origin in with HOOT_CORS_ORIGINS=*", async () => {
    const server = await startTestServer({ HOOT_CORS_ORIGINS: "*" });
    try {
      const res = await preflight(server.url, "/api/users/me", "https://anything.example");
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://anything.example");
    } finally {
      await server.close();
    }
  });
});

describe("/metrics", () => {
  it("needs the bearer token when HOOT_METRICS_TOKEN is set", async () => {
    const token = "metrics-token-0123456789";
    const server = await startTestServer({ HOOT_METRICS_TOKEN: token });
    try {
      const none = await api(server.url, "GET", "/metrics");
      expect(none.status).toBe(401);
      expect(none.body.code).toBe("unauthorized");
      expect((await api(server.url, "GET", "/metrics", { token: "metrics-token-0123456780" })).status).toBe(401);
      const ok = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("hoot_http_requests_total");
    } finally {
      await server.close();
    }
  });

  it("is not served at all outside the dev environment without a token", async () => {
    const server = await startTestServer({ HOOT_ENV: "staging" });
    try {
      const res = await api(server.url, "GET", "/metrics");
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    } finally {
      await server.close();
    }
  });
});

describe("the OpenAPI document", () => {
  it("does not send readers of /docs to /docs", async () => {
    const doc = (await api(file.server.url, "GET", "/api/openapi.json")).body;
    expect(doc.info.description).not.toContain("See /docs");
    expect(doc.info.description.length).toBeGreaterThan(20);
  });
});

describe("raw requests", () => {
  it("a request with no Host header still gets an answer", async () => {
    const res = await rawRequest(file.server.port, "GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(res.status).toBeLessThan(500);
  });
});

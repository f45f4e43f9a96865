/**
 * The HTTP half of the hosted engine's browser SDK (uglabs/ug-js-sdk: src/ug-core/network/api.ts), replayed
 * request by request as axios sends it from the SDK's `Api` class: `apiUrl` ends in `/api`; the instance's
 * default `Authorization: Bearer ${authToken}` goes on every request, so the first login carries
 * `Bearer undefined` and a later one the stale token from localStorage; the login body is
 * `{api_key, federated_id}`, with federated_id left out (undefined) for a developer. The SDK reads
 * `access_token`, `x-request-id`, and on failure `error.response.data.error` and the status (401 clears its
 * stored token). The CORS preflight a browser sends first is tested with the CORS work; the socket half of
 * the same flows belongs beside it in js-sdk.ws.test.ts.
 */
import { describe, expect, it } from "bun:test";
import { generateKey } from "../../src/auth/keys.ts";
import { api, createPlayer, serverForFile } from "../helpers/server.ts";

const file = serverForFile();

/** The SDK's Api class over HTTP: what it sends and what it keeps. */
class BrowserApi {
  authToken: string | undefined;
  requestId: string | null = null;
  constructor(
    readonly apiUrl: string,
    private readonly apiKey: string,
    private readonly federatedId?: string,
  ) {}

  private async send(method: string, path: string, data?: Record<string, unknown>) {
    const headers: Record<string, string> = { accept: "application/json, text/plain, */*", authorization: `Bearer ${this.authToken}` };
    if (data !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${this.apiUrl}${path}`, { method, headers, body: data === undefined ? undefined : JSON.stringify(data) });
    this.requestId = response.headers.get("x-request-id") || this.requestId;
    const body = await response.json();
    if (response.status === 401) this.authToken = undefined;
    if (response.status < 200 || response.status > 299) return { ok: false as const, status: response.status, error: body.error as string };
    return { ok: true as const, status: response.status, data: body };
  }

  /** loginWithApiKey(): POST /auth/login {api_key, federated_id}; JSON.stringify drops an undefined federated_id. */
  async loginWithApiKey() {
    const res = await this.send("POST", "/auth/login", { api_key: this.apiKey, federated_id: this.federatedId });
    if (res.ok) this.authToken = res.data.access_token;
    return res;
  }

  getMe = () => this.send("GET", "/users/me");
}

const sdk = (apiKey: string, federatedId?: string) => new BrowserApi(`${file.server.url}/api`, apiKey, federatedId);

describe("browser SDK: login", () => {
  it("logs a player in with Authorization: Bearer undefined on the request, and keeps the token and request id", async () => {
    const player = await createPlayer(file.server, file.team);
    const client = sdk(file.team.publicKey, player.federatedId);
    const res = await client.loginWithApiKey();
    expect(res.status).toBe(200);
    expect(client.authToken?.split(".")).toHaveLength(3);
    expect(client.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs a developer in without federated_id and reads /users/me with the token", async () => {
    const client = sdk(file.team.developerKey);
    expect((await client.loginWithApiKey()).status).toBe(200);
    const me = await client.getMe();
    expect(me.ok && me.data).toMatchObject({ email: `dev-${file.team.teamName}@example.com`, api_key: file.team.developerKey });
  });

  it("ignores a stale token left in the Authorization header by an earlier session", async () => {
    const player = await createPlayer(file.server, file.team);
    const client = sdk(file.team.publicKey, player.federatedId);
    client.authToken = "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c3RhbGU";
    expect((await client.loginWithApiKey()).status).toBe(200);
    const revoked = await createPlayer(file.server, file.team);
    const again = sdk(file.team.publicKey, revoked.federatedId);
    again.authToken = revoked.token;
    await api(file.server.url, "DELETE", `/api/players/${revoked.pk}`, { token: file.team.developerToken });
    // The header holds a revoked token and the body a deleted player: the body decides, and it is a 401.
    const res = await again.loginWithApiKey();
    expect(res.status).toBe(401);
  });

  it("answers a wrong key and an unknown player with a 401 whose error the SDK shows, and a request id", async () => {
    for (const client of [sdk(generateKey("sk", "dev"), generateKey("fid", "dev")), sdk(file.team.publicKey, generateKey("fid", "dev")), sdk("")]) {
      const res = await client.loginWithApiKey();
      expect(res.status).toBe(401);
      expect(!res.ok && res.error).toBe("Authentication failed: the credential is missing, invalid, expired or revoked.");
      expect(client.authToken).toBeUndefined();
      expect(client.requestId).toBeTruthy();
    }
  });
});

/**
 * The HTTP half of the hosted engine's Unity SDK (uglabs/ug-unity-sdk: Runtime/Managers/AuthenticationManager.cs,
 * Runtime/Models/HTTPRequestMessages.cs, Runtime/Services/HttpService/HttpClientService.cs), replayed byte for
 * byte as .NET's HttpClient writes it: `POST {host}/api/auth/login`, `Authorization: Bearer` with nothing after
 * it (the client is built with a null token), `Content-Type: application/json; charset=utf-8`, and the body as
 * Newtonsoft serialises the settings object: every field present, "" for what the inspector left empty (null
 * when made in code). After its first POST the SDK also sends an empty `traceparent` header. It reads only
 * `access_token`, and the status. The socket half belongs beside it in unity-sdk.ws.test.ts.
 */
import { describe, expect, it } from "bun:test";
import { connect } from "node:net";
import { generateKey } from "../../src/auth/keys.ts";
import { createPlayer, serverForFile } from "../helpers/server.ts";

const file = serverForFile();

/** One request written on a raw socket, as HttpClient does it; `expectContinue` waits for 100 Continue first (Mono's default). */
function rawLogin(body: string, options: { traceparent?: boolean; expectContinue?: boolean } = {}): Promise<{ status: number; body: any }> {
  const { port } = file.server;
  const head = [
    "POST /api/auth/login HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Authorization: Bearer",
    ...(options.traceparent ? ["traceparent: "] : []),
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...(options.expectContinue ? ["Expect: 100-continue"] : []),
    "Connection: close",
    "",
    "",
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    let bodySent = !options.expectContinue;
    socket.on("data", (chunk) => {
      data += chunk.toString("utf8");
      if (!bodySent && data.startsWith("HTTP/1.1 100")) {
        bodySent = true;
        socket.write(body);
      }
    });
    socket.on("end", () => {
      const final = data.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, "");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(final)?.[1]);
      resolve({ status, body: JSON.parse(final.slice(final.indexOf("\r\n\r\n") + 4)) });
    });
    socket.on("error", reject);
    socket.write(options.expectContinue ? head : head + body);
  });
}

const authenticateRequest = (api_key: string, team_name: string | null, federated_id: string | null) => JSON.stringify({ api_key, team_name, federated_id });

describe("Unity SDK: health", () => {
  it("answers the HealthEndpoint's GET {host}/health, with no token, as /api/health does", async () => {
    const res = await fetch(`${file.server.url}/health`, { headers: { Authorization: "Bearer" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});

describe("Unity SDK: login", () => {
  it('logs a player in with team_name "" and an empty bearer, and reads access_token', async () => {
    const player = await createPlayer(file.server, file.team);
    const res = await rawLogin(authenticateRequest(file.team.publicKey, "", player.federatedId));
    expect(res.status).toBe(200);
    expect(res.body.access_token.split(".")).toHaveLength(3);
  });

  it('logs a developer in with team_name and federated_id both ""', async () => {
    const res = await rawLogin(authenticateRequest(file.team.developerKey, "", ""));
    expect(res.status).toBe(200);
  });

  it("logs a playerCreate service account in with the fields null, as a settings object made in code serialises", async () => {
    expect((await rawLogin(authenticateRequest(file.team.backendKey, null, null))).status).toBe(200);
  });

  it("accepts the team's name, and refuses another team's name with 401", async () => {
    const player = await createPlayer(file.server, file.team);
    expect((await rawLogin(authenticateRequest(file.team.publicKey, file.team.teamName, player.federatedId))).status).toBe(200);
    const wrong = await rawLogin(authenticateRequest(file.team.publicKey, "someone-elses-team", player.federatedId));
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("unauthorized");
  });

  it("logs in again with the empty traceparent header the SDK adds after its first POST, and with Expect: 100-continue", async () => {
    const player = await createPlayer(file.server, file.team);
    const body = authenticateRequest(file.team.publicKey, "", player.federatedId);
    expect((await rawLogin(body, { traceparent: true })).status).toBe(200);
    expect((await rawLogin(body, { traceparent: true, expectContinue: true })).status).toBe(200);
  });

  it("answers an empty api_key and an unknown player with the one 401 body", async () => {
    for (const body of [authenticateRequest("", "", ""), authenticateRequest(file.team.publicKey, "", generateKey("fid", "dev"))]) {
      const res = await rawLogin(body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Authentication failed: the credential is missing, invalid, expired or revoked.", code: "unauthorized" });
    }
  });
});

/**
 * The limit on sockets waiting to authenticate counts clients by the address the upgrade came from: behind a
 * proxy hoot is told to trust (HOOT_TRUST_PROXY), the address the proxy saw (the last X-Forwarded-For entry),
 * so clients behind one proxy do not share one allowance; otherwise the socket's own address, whatever the
 * client writes in X-Forwarded-For.
 */
import { describe, expect, it } from "bun:test";
import { startTestServer } from "../helpers/server.ts";
import { WsProbe } from "../helpers/ws.ts";

describe("sockets waiting to authenticate, per client address", () => {
  it("behind a trusted proxy, counts each forwarded client apart (and only the proxy's own, last entry)", async () => {
    const server = await startTestServer({ HOOT_TRUST_PROXY: "true", HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS: "1" });
    try {
      const a = await WsProbe.open(server.url, { "X-Forwarded-For": "203.0.113.5" });
      const b = await WsProbe.open(server.url, { "X-Forwarded-For": "203.0.113.6" });
      // A client-written first entry does not make a new client: the proxy appended the real one.
      const c = await WsProbe.open(server.url, { "X-Forwarded-For": "198.51.100.1, 203.0.113.5" });
      expect((await c.closed).code).toBe(1013);
      expect(c.messages.at(-1)).toMatchObject({ type: "error", code: "too_many_pending" });
      expect((await a.request("ping")).kind).toBe("ping");
      expect((await b.request("ping")).kind).toBe("ping");
      a.close();
      b.close();
    } finally {
      await server.close();
    }
  });

  it("without HOOT_TRUST_PROXY, ignores X-Forwarded-For: every socket from this host shares one allowance", async () => {
    const server = await startTestServer({ HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS: "1" });
    try {
      const a = await WsProbe.open(server.url, { "X-Forwarded-For": "203.0.113.5" });
      const b = await WsProbe.open(server.url, { "X-Forwarded-For": "203.0.113.6" });
      expect((await b.closed).code).toBe(1013);
      expect((await a.request("ping")).kind).toBe("ping");
      a.close();
    } finally {
      await server.close();
    }
  });
});

/**
 * The configuration a session holds is bounded (issue 24): a set_configuration or merge_configuration whose
 * result would pass HOOT_CONFIG_MAX_BYTES, HOOT_CONFIG_MAX_CONTEXT_KEYS or HOOT_CONFIG_MAX_CONTEXT_DEPTH is
 * refused with `configuration_too_large`, and the session keeps its previous configuration. Through the real
 * server; memory is the test process's own, since the server runs in it.
 */
import { describe, expect, it } from "bun:test";
import { createPlayer, serverForFile } from "../helpers/server.ts";
import { openSession, type WsProbe } from "../helpers/ws.ts";

// Messages per minute high enough for the hostile loop; every other bound at its default.
const file = serverForFile({ HOOT_WS_MESSAGES_PER_MINUTE: "100000" });
const small = serverForFile({ HOOT_CONFIG_MAX_CONTEXT_KEYS: "5", HOOT_CONFIG_MAX_CONTEXT_DEPTH: "2" });

const PROMPT = { prompt: "You are Ollie the owl, a kind friend.", context: { name: "Mia" } };

async function configOf(probe: WsProbe) {
  return (await probe.request("get_configuration")).config;
}

describe("configuration size on the interact socket", () => {
  it("refuses a merge that would pass the size bound, naming it, and keeps the previous configuration", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token, PROMPT);
    const first = await probe.request("merge_configuration", { config: { context: { story: "a".repeat(40_000) } } });
    expect(first.kind).toBe("merge_configuration");
    const before = await configOf(probe);

    const second = await probe.request("merge_configuration", { config: { context: { more: "b".repeat(40_000) } } });
    expect(second).toMatchObject({ kind: "error", code: "configuration_too_large" });
    expect(second.error).toContain("65536 bytes");
    expect(second.error).toContain("HOOT_CONFIG_MAX_BYTES");
    expect(await configOf(probe)).toEqual(before);

    // The session is still usable: a merge that fits is taken.
    expect((await probe.request("merge_configuration", { config: { context: { story: null } } })).kind).toBe("merge_configuration");
    probe.close();
  });

  it("refuses set_configuration past the context key and depth bounds, keeping the previous configuration", async () => {
    const player = await createPlayer(small.server, small.team);
    const probe = await openSession(small.server.url, player.token, PROMPT);

    const keys = await probe.request("set_configuration", { config: { prompt: "x", context: { a: 1, b: 2, c: { d: 3, e: 4, f: 5 } } } });
    expect(keys).toMatchObject({ kind: "error", code: "configuration_too_large" });
    expect(keys.error).toContain("more than 5 keys");

    const deep = await probe.request("set_configuration", { config: { prompt: "x", context: { a: { b: { c: { d: 1 } } } } } });
    expect(deep).toMatchObject({ kind: "error", code: "configuration_too_large" });
    expect(deep.error).toContain("deeper than 2 levels");

    // Merges count the merged result: each adds one key, the fifth is one too many.
    for (const key of ["k1", "k2", "k3", "k4"])
      expect((await probe.request("merge_configuration", { config: { context: { [key]: 1 } } })).kind).toBe("merge_configuration");
    const fifth = await probe.request("merge_configuration", { config: { context: { k5: 1 } } });
    expect(fifth).toMatchObject({ kind: "error", code: "configuration_too_large" });
    expect(await configOf(probe)).toEqual({ ...PROMPT, context: { name: "Mia", k1: 1, k2: 1, k3: 1, k4: 1 } });
    probe.close();
  });

  it("keeps server memory flat over hostile merges on a player's five sockets", async () => {
    const player = await createPlayer(file.server, file.team);
    const sockets = await Promise.all([1, 2, 3, 4, 5].map(() => openSession(file.server.url, player.token, PROMPT)));
    // Each merge nests a fresh 40 KB object: unbounded, 5 sockets x 200 merges would keep ~40 MB.
    const hostile = (probe: WsProbe, i: number) =>
      probe.request("merge_configuration", { config: { context: { [`n${i}`]: { [`m${i}`]: "x".repeat(40_000) } } } });
    const round = async (from: number, to: number) => {
      const codes: string[] = [];
      for (let i = from; i < to; i++) for (const answer of await Promise.all(sockets.map((probe) => hostile(probe, i)))) codes.push(answer.code ?? answer.kind);
      return codes;
    };

    await round(0, 20);
    Bun.gc(true);
    const before = process.memoryUsage().heapUsed;
    const codes = await round(20, 220);
    Bun.gc(true);
    const grown = process.memoryUsage().heapUsed - before;

    expect(new Set(codes)).toEqual(new Set(["configuration_too_large"]));
    expect(grown).toBeLessThan(10 * 1024 * 1024);
    for (const probe of sockets) {
      expect(JSON.stringify(await configOf(probe)).length).toBeLessThanOrEqual(65536);
      probe.close();
    }
  });
});

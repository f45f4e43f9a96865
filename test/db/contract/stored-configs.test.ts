import { expect, it } from "bun:test";
import { storedConfigLookup } from "../../../src/configs/repo.ts";
import { isUniqueViolation } from "../../../src/db/errors.ts";
import { contract, player, rejection, teamWithDeveloper } from "./harness.ts";

contract("stored configurations repository", ({ store }) => {
  const version = (teamId: number, name: string, v: number, kind: "config" | "utility" = "config") =>
    store().storedConfigs.insert({ teamId, kind, name, version: v, description: v === 1 ? "first" : null, body: JSON.stringify({ prompt: `v${v}` }) });

  it("adds versions and finds the latest, one version, and the highest number", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const first = await version(teamId, "owl", 1);
    expect(first).toEqual({
      id: expect.any(Number),
      teamId,
      kind: "config",
      name: "owl",
      version: 1,
      description: "first",
      body: '{"prompt":"v1"}',
      createdAt: expect.any(Number),
    });
    const second = await version(teamId, "owl", 2);
    expect(await store().storedConfigs.latestVersion(teamId, "config", "owl")).toBe(2);
    expect(await store().storedConfigs.findLatest(teamId, "config", "owl")).toEqual(second);
    expect(await store().storedConfigs.findVersion(teamId, "config", "owl", 1)).toEqual(first);
    expect(await store().storedConfigs.findVersion(teamId, "config", "owl", 3)).toBeNull();
    expect(await store().storedConfigs.findVersion(teamId, "config", "owl", 2 ** 40)).toBeNull();
    expect(await store().storedConfigs.latestVersion(teamId, "utility", "owl")).toBeNull();
    expect(await store().storedConfigs.findLatest(teamId, "utility", "owl")).toBeNull();
    expect(isUniqueViolation(await rejection(version(teamId, "owl", 2)))).toBe(true);
  });

  it("counts names and versions, lists each name's latest version by name, and deletes a name", async () => {
    const { teamId } = await teamWithDeveloper(store());
    await version(teamId, "zebra", 1);
    const owl1 = await version(teamId, "owl", 1);
    await Bun.sleep(5);
    const owl2 = await version(teamId, "owl", 2);
    await version(teamId, "cats", 1, "utility");
    expect(await store().storedConfigs.countNames(teamId, "config")).toBe(2);
    expect(await store().storedConfigs.countVersions(teamId, "config", "owl")).toBe(2);
    const listed = await store().storedConfigs.listLatest(teamId, "config");
    expect(listed.map((s) => [s.name, s.version])).toEqual([
      ["owl", 2],
      ["zebra", 1],
    ]);
    expect(listed[0]).toEqual({ name: "owl", version: 2, description: null, createdAt: owl1.createdAt, updatedAt: owl2.createdAt });
    expect(await store().storedConfigs.deleteName(teamId, "config", "owl")).toBe(true);
    expect(await store().storedConfigs.deleteName(teamId, "config", "owl")).toBe(false);
    expect(await store().storedConfigs.countNames(teamId, "config")).toBe(1);
    expect(await store().storedConfigs.countNames(teamId, "utility")).toBe(1);
  });

  it("answers the socket's lookup within the player's team only", async () => {
    const a = await teamWithDeveloper(store());
    const b = await teamWithDeveloper(store());
    await version(a.teamId, "owl", 1);
    const mine = await player(store(), a.teamId);
    const theirs = await player(store(), b.teamId);
    const lookup = storedConfigLookup(store());
    expect(await lookup.find(mine.id, "config", "owl", null)).toEqual({ found: true, version: 1, body: { prompt: "v1" } });
    expect(await lookup.find(mine.id, "config", "owl", 7)).toEqual({ found: false, latest: 1 });
    expect(await lookup.find(theirs.id, "config", "owl", null)).toEqual({ found: false, latest: null });
    expect(await lookup.find(mine.id + 100_000, "config", "owl", null)).toEqual({ found: false, latest: null });
  });
});

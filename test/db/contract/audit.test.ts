import { expect, it } from "bun:test";
import { contract, player, teamWithDeveloper, unique } from "./harness.ts";

contract("audit repository", ({ store }) => {
  const row = (teamId: number, playerId: number | null, action = "player.read") => ({
    teamId,
    actorKind: "developer" as const,
    actorPk: 7,
    action,
    playerId,
    requestId: unique("req"),
  });

  it("writes rows and pages a team's newest first, optionally of one player", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const mia = await player(store(), teamId);
    const leo = await player(store(), teamId);
    const written = [row(teamId, mia.id, "player.read"), row(teamId, leo.id, "player.export"), row(teamId, mia.id, "player.consent")];
    for (const r of written) await store().audit.insert(r);
    const all = await store().audit.list(teamId, { before: 0, limit: 10 });
    expect(all.map((r) => r.action)).toEqual(["player.consent", "player.export", "player.read"]);
    expect(all[0]).toEqual({ id: expect.any(Number), at: expect.any(Number), ...written[2]! });
    const page = await store().audit.list(teamId, { before: all[0]!.id, limit: 1 });
    expect(page.map((r) => r.action)).toEqual(["player.export"]);
    expect((await store().audit.list(teamId, { before: 0, limit: 10, playerId: mia.id })).map((r) => r.action)).toEqual(["player.consent", "player.read"]);
    expect(await store().audit.list(teamId, { before: 0, limit: 10, playerId: 2 ** 40 })).toEqual([]);
    const other = await teamWithDeveloper(store());
    expect(await store().audit.list(other.teamId, { before: 0, limit: 10 })).toEqual([]);
  });

  it("keeps a player's rows after the player is deleted, and takes a system row without actor or request", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    await store().audit.insert(row(teamId, kid.id, "player.delete"));
    expect(await store().players.delete(teamId, kid.id)).toBe(true);
    await store().audit.insert({ teamId, actorKind: "system", actorPk: null, action: "player.history_erase", playerId: kid.id, requestId: null });
    const rows = await store().audit.list(teamId, { before: 0, limit: 10, playerId: kid.id });
    expect(rows.map((r) => [r.actorKind, r.actorPk, r.action, r.requestId === null])).toEqual([
      ["system", null, "player.history_erase", true],
      ["developer", 7, "player.delete", false],
    ]);
  });

  it("names, of the players given, those with a row of an action by an actor kind since a time", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const [mia, leo, ada] = [await player(store(), teamId), await player(store(), teamId), await player(store(), teamId)];
    const system = (playerId: number, action = "player.history_erase") => ({
      teamId,
      actorKind: "system" as const,
      actorPk: null,
      action,
      playerId,
      requestId: null,
    });
    const since = Date.now() - 60_000;
    await store().audit.insert(system(mia.id));
    await store().audit.insert(system(mia.id));
    // Another action, or another actor, does not count.
    await store().audit.insert(system(leo.id, "player.read"));
    await store().audit.insert(row(teamId, ada.id, "player.history_erase"));
    const ids = [mia.id, leo.id, ada.id];
    expect(await store().audit.playersWithRowSince("player.history_erase", "system", since, ids)).toEqual([mia.id]);
    expect(await store().audit.playersWithRowSince("player.history_erase", "system", since, [leo.id, ada.id])).toEqual([]);
    expect(await store().audit.playersWithRowSince("player.history_erase", "system", Date.now() + 60_000, ids)).toEqual([]);
    expect(await store().audit.playersWithRowSince("player.history_erase", "system", since, [])).toEqual([]);
    expect(await store().audit.playersWithRowSince("player.history_erase", "developer", since, ids)).toEqual([ada.id]);
  });

  it("deletes rows written before a cutoff, with their count", async () => {
    const { teamId } = await teamWithDeveloper(store());
    await store().audit.insert(row(teamId, null, "player.read"));
    expect(await store().audit.deleteBefore(0)).toBe(0);
    expect(await store().audit.list(teamId, { before: 0, limit: 10 })).toHaveLength(1);
    expect(await store().audit.deleteBefore(Date.now() + 60_000)).toBeGreaterThanOrEqual(1);
    expect(await store().audit.list(teamId, { before: 0, limit: 10 })).toEqual([]);
  });
});

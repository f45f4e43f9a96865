import { expect, it } from "bun:test";
import { contract, player, teamWithDeveloper, unique } from "./harness.ts";

contract("incidents repository", ({ store }) => {
  const incident = (teamId: number, playerId: number, category = "self_harm") => ({
    teamId,
    playerId,
    sessionId: unique("session"),
    category,
    action: "escalate",
    direction: "input" as const,
    policy: "children_strict",
  });

  it("records incidents and pages a team's newest first, optionally of one player", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const mia = await player(store(), teamId);
    const leo = await player(store(), teamId);
    const written = [incident(teamId, mia.id, "self_harm"), incident(teamId, leo.id, "abuse"), incident(teamId, mia.id, "stranger_danger")];
    for (const i of written) await store().incidents.insert(i);
    const all = await store().incidents.list(teamId, { before: 0, limit: 10 });
    expect(all.map((r) => r.category)).toEqual(["stranger_danger", "abuse", "self_harm"]);
    expect(all[0]).toEqual({ id: expect.any(Number), ...written[2]!, repeats: 0, createdAt: expect.any(Number) });
    const page = await store().incidents.list(teamId, { before: all[0]!.id, limit: 1 });
    expect(page.map((r) => r.category)).toEqual(["abuse"]);
    expect((await store().incidents.list(teamId, { before: 0, limit: 10, playerId: mia.id })).map((r) => r.category)).toEqual(["stranger_danger", "self_harm"]);
    expect(await store().incidents.list(teamId, { before: 0, limit: 10, playerId: 2 ** 40 })).toEqual([]);
    expect(await store().incidents.list(teamId, { before: 2 ** 40, limit: 10 })).toHaveLength(3);
    const other = await teamWithDeveloper(store());
    expect(await store().incidents.list(other.teamId, { before: 0, limit: 10 })).toEqual([]);
  });

  it("deletes a player's incidents and nobody else's", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const mia = await player(store(), teamId);
    const leo = await player(store(), teamId);
    await store().incidents.insert(incident(teamId, mia.id));
    await store().incidents.insert(incident(teamId, leo.id));
    await store().incidents.deleteOfPlayer(mia.id);
    expect(await store().incidents.list(teamId, { before: 0, limit: 10, playerId: mia.id })).toEqual([]);
    expect(await store().incidents.list(teamId, { before: 0, limit: 10, playerId: leo.id })).toHaveLength(1);
  });

  it("counts repeats on a player's latest incident only", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const mia = await player(store(), teamId);
    const leo = await player(store(), teamId);
    await store().incidents.insert(incident(teamId, mia.id, "self_harm"));
    await store().incidents.insert(incident(teamId, mia.id, "abuse"));
    await store().incidents.insert(incident(teamId, leo.id, "abuse"));
    await store().incidents.addRepeats(mia.id, 5);
    await store().incidents.addRepeats(mia.id, 2);
    const rows = await store().incidents.list(teamId, { before: 0, limit: 10 });
    expect(rows.map((r) => [r.playerId === mia.id ? "mia" : "leo", r.category, r.repeats])).toEqual([
      ["leo", "abuse", 0],
      ["mia", "abuse", 7],
      ["mia", "self_harm", 0],
    ]);
  });

  it("deletes incidents recorded before a moment, and not the newer ones", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const mia = await player(store(), teamId);
    await store().incidents.insert(incident(teamId, mia.id));
    const [row] = await store().incidents.list(teamId, { before: 0, limit: 1 });
    // Older rows of other tests may go; this one, recorded at that moment, stays.
    await store().incidents.deleteBefore(row!.createdAt);
    expect(await store().incidents.list(teamId, { before: 0, limit: 10 })).toHaveLength(1);
    expect(await store().incidents.deleteBefore(row!.createdAt + 1)).toBeGreaterThanOrEqual(1);
    expect(await store().incidents.list(teamId, { before: 0, limit: 10 })).toEqual([]);
  });
});

import { expect, it } from "bun:test";
import { isUniqueViolation } from "../../../src/db/errors.ts";
import { contract, rejection, teamWithDeveloper } from "./harness.ts";

contract("safety policies repository", ({ store }) => {
  it("inserts, finds, lists by name, names and counts a team's policies", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const zoo = await store().safetyPolicies.insert(teamId, "zoo", '{"base":"children_strict"}');
    expect(zoo).toEqual({
      id: expect.any(Number),
      teamId,
      name: "zoo",
      body: '{"base":"children_strict"}',
      version: 1,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    const ark = await store().safetyPolicies.insert(teamId, "ark", "{}");
    expect(await store().safetyPolicies.find(teamId, "zoo")).toEqual(zoo);
    expect(await store().safetyPolicies.find(teamId, "none")).toBeNull();
    expect((await store().safetyPolicies.list(teamId)).map((p) => p.id)).toEqual([ark.id, zoo.id]);
    expect(await store().safetyPolicies.names(teamId)).toEqual(["ark", "zoo"]);
    expect(await store().safetyPolicies.count(teamId)).toBe(2);
    expect(isUniqueViolation(await rejection(store().safetyPolicies.insert(teamId, "zoo", "{}")))).toBe(true);
  });

  it("keeps teams apart", async () => {
    const a = await teamWithDeveloper(store());
    const b = await teamWithDeveloper(store());
    await store().safetyPolicies.insert(a.teamId, "shared", "{}");
    expect(await store().safetyPolicies.find(b.teamId, "shared")).toBeNull();
    expect(await store().safetyPolicies.names(b.teamId)).toEqual([]);
    expect(await store().safetyPolicies.count(b.teamId)).toBe(0);
    expect(await store().safetyPolicies.replace(b.teamId, "shared", "{}")).toBeNull();
    expect(await store().safetyPolicies.delete(b.teamId, "shared")).toBe(false);
    expect(await store().safetyPolicies.insert(b.teamId, "shared", "{}")).toMatchObject({ teamId: b.teamId });
  });

  it("replaces a body, bumping the version and the update time, and deletes", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const made = await store().safetyPolicies.insert(teamId, "p", "{}");
    await Bun.sleep(5);
    const replaced = await store().safetyPolicies.replace(teamId, "p", '{"strict_after":2}');
    expect(replaced).toMatchObject({ id: made.id, body: '{"strict_after":2}', version: 2, createdAt: made.createdAt });
    expect(replaced!.updatedAt).toBeGreaterThan(made.updatedAt);
    expect(await store().safetyPolicies.delete(teamId, "p")).toBe(true);
    expect(await store().safetyPolicies.delete(teamId, "p")).toBe(false);
  });
});

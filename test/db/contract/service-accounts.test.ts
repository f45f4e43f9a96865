import { expect, it } from "bun:test";
import { isUniqueViolation } from "../../../src/db/errors.ts";
import { contract, rejection, sealed, serviceAccount, teamWithDeveloper, unique } from "./harness.ts";

contract("service accounts repository", ({ store }) => {
  it("inserts an account and reads it back by name, key hash and state", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const values = { teamId, name: unique("app"), playerCreate: true, keyEnc: sealed("key"), keyHash: unique("sk") };
    const made = await store().serviceAccounts.insert(values);
    expect(made).toEqual({ id: expect.any(Number), ...values, version: 1, createdAt: expect.any(Number) });
    expect(await store().serviceAccounts.findByName(teamId, values.name)).toEqual(made);
    expect(await store().serviceAccounts.findByKeyHash(values.keyHash)).toEqual(made);
    expect(await store().serviceAccounts.state(made.id)).toEqual({ version: 1, playerCreate: true, teamId });
    const loginOnly = await serviceAccount(store(), teamId, false);
    expect(await store().serviceAccounts.state(loginOnly.id)).toEqual({ version: 1, playerCreate: false, teamId });
    expect(loginOnly.playerCreate).toBe(false);
    expect(await store().serviceAccounts.state(made.id + 100_000)).toBeNull();
    expect(await store().serviceAccounts.findByName(teamId, unique("none"))).toBeNull();
  });

  it("refuses a second name in the same team, allows it in another", async () => {
    const a = await teamWithDeveloper(store());
    const b = await teamWithDeveloper(store());
    const sa = await serviceAccount(store(), a.teamId);
    const again = { name: sa.name, playerCreate: false, keyEnc: sealed("k"), keyHash: unique("sk") };
    expect(isUniqueViolation(await rejection(store().serviceAccounts.insert({ teamId: a.teamId, ...again })))).toBe(true);
    expect(await store().serviceAccounts.insert({ teamId: b.teamId, ...again })).toMatchObject({ teamId: b.teamId, name: sa.name });
  });

  it("lists a team's accounts oldest first and deletes within the team only", async () => {
    const a = await teamWithDeveloper(store());
    const b = await teamWithDeveloper(store());
    const first = await serviceAccount(store(), a.teamId);
    const second = await serviceAccount(store(), a.teamId, true);
    expect((await store().serviceAccounts.list(a.teamId)).map((s) => s.id)).toEqual([first.id, second.id]);
    expect(await store().serviceAccounts.delete(b.teamId, first.id)).toBe(false);
    expect(await store().serviceAccounts.delete(a.teamId, first.id)).toBe(true);
    expect(await store().serviceAccounts.delete(a.teamId, first.id)).toBe(false);
    expect((await store().serviceAccounts.list(a.teamId)).map((s) => s.id)).toEqual([second.id]);
  });

  it("deletes every account of a team and says which", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const made = [await serviceAccount(store(), teamId), await serviceAccount(store(), teamId)];
    expect((await store().serviceAccounts.deleteOfTeam(teamId)).sort((x, y) => x - y)).toEqual(made.map((s) => s.id));
    expect(await store().serviceAccounts.deleteOfTeam(teamId)).toEqual([]);
  });
});

import { expect, it } from "bun:test";
import { isUniqueViolation } from "../../../src/db/errors.ts";
import { contract, player, rejection, sealed, serviceAccount, teamWithDeveloper, unique } from "./harness.ts";

contract("teams repository", ({ store }) => {
  it("inserts teams, finds them by id and name, and knows when any exists", async () => {
    expect(typeof (await store().teams.any())).toBe("boolean");
    const name = unique("team");
    const team = await store().teams.insert(name);
    expect(team).toEqual({ id: expect.any(Number), name, createdAt: expect.any(Number), requireConsent: false });
    expect(await store().teams.any()).toBe(true);
    expect(await store().teams.find(team.id)).toEqual(team);
    expect(await store().teams.findByName(name)).toEqual(team);
    expect(await store().teams.find(team.id + 100_000)).toBeNull();
    expect(await store().teams.findByName(unique("none"))).toBeNull();
    expect(isUniqueViolation(await rejection(store().teams.insert(name)))).toBe(true);
  });

  it("lists teams oldest first and renames them", async () => {
    const a = await store().teams.insert(unique("a"));
    const b = await store().teams.insert(unique("b"));
    const ids = (await store().teams.list()).map((t) => t.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    const renamed = unique("renamed");
    expect(await store().teams.rename(a.id, renamed)).toEqual({ ...a, name: renamed });
    expect(await store().teams.rename(a.id + 100_000, unique("x"))).toBeNull();
    expect(isUniqueViolation(await rejection(store().teams.rename(b.id, renamed)))).toBe(true);
  });

  it("keeps memberships: add (twice is a no-op), list in team order, check, remove", async () => {
    const { teamId, userId } = await teamWithDeveloper(store());
    const second = await store().teams.insert(unique("second"));
    await store().teams.addMember(second.id, userId);
    await store().teams.addMember(second.id, userId);
    const firstName = (await store().teams.find(teamId))!.name;
    expect(await store().teams.teamsOfUser(userId)).toEqual([
      { id: teamId, name: firstName },
      { id: second.id, name: second.name },
    ]);
    expect(await store().teams.isMember(userId, second.id)).toBe(true);
    const mine = (await store().teams.memberships()).filter((m) => m.userId === userId);
    expect(mine).toEqual([
      { userId, id: teamId, name: firstName },
      { userId, id: second.id, name: second.name },
    ]);
    expect(await store().teams.removeMember(second.id, userId)).toBe(true);
    expect(await store().teams.removeMember(second.id, userId)).toBe(false);
    expect(await store().teams.isMember(userId, second.id)).toBe(false);
    expect(await store().teams.teamsOfUser(userId + 100_000)).toEqual([]);
  });

  it("deletes a team with its memberships, players and service accounts", async () => {
    const { teamId, userId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const sa = await serviceAccount(store(), teamId);
    await store().transaction(async (tx) => {
      expect(await tx.teams.lock(teamId)).toMatchObject({ id: teamId });
      await tx.teams.delete(teamId);
    });
    expect(await store().teams.find(teamId)).toBeNull();
    expect(await store().teams.isMember(userId, teamId)).toBe(false);
    expect(await store().players.findInTeam(teamId, kid.id)).toBeNull();
    expect(await store().serviceAccounts.state(sa.id)).toBeNull();
    // The developer stays.
    expect(await store().users.get(userId)).not.toBeNull();
    expect(await store().transaction((tx) => tx.teams.lock(teamId))).toBeNull();
  });

  it("keeps the bytes of encrypted columns exactly (including zero and high bytes)", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const bytes = Buffer.from([0, 1, 2, 0, 255, 254, 128, 0]);
    const made = await store().players.insert({ teamId, externalId: unique("bytes"), federatedIdEnc: bytes, federatedIdHash: unique("h") });
    expect(Buffer.compare((await store().players.findInTeam(teamId, made.id))!.federatedIdEnc, bytes)).toBe(0);
    expect(sealed("x").length).toBe(4);
  });

  it("turns require_consent on and off, and finds no team to change past the last", async () => {
    const team = await store().teams.insert(unique("consent"));
    expect(await store().teams.setRequireConsent(team.id, true)).toEqual({ ...team, requireConsent: true });
    expect(await store().teams.find(team.id)).toEqual({ ...team, requireConsent: true });
    expect(await store().teams.setRequireConsent(team.id, false)).toEqual(team);
    expect(await store().teams.setRequireConsent(team.id + 100_000, true)).toBeNull();
  });
});

import { expect, it } from "bun:test";
import { contract, teamWithDeveloper, unique } from "./harness.ts";

contract("invitations repository", ({ store }) => {
  const email = () => `${unique("inv")}@example.com`;

  it("invites an e-mail once per team (null the second time, also when two invite at once) and lists the team's invitations oldest first", async () => {
    const { teamId, userId } = await teamWithDeveloper(store());
    const ada = email();
    const made = await store().invitations.insert({ teamId, email: ada, invitedBy: userId });
    expect(made).toEqual({ id: expect.any(Number), teamId, email: ada, invitedBy: userId, createdAt: expect.any(Number) });
    expect(await store().invitations.insert({ teamId, email: ada, invitedBy: userId })).toBeNull();
    const bob = email();
    const raced = await Promise.all([
      store().invitations.insert({ teamId, email: bob, invitedBy: null }),
      store().invitations.insert({ teamId, email: bob, invitedBy: null }),
    ]);
    expect(raced.filter((row) => row !== null)).toHaveLength(1);
    expect((await store().invitations.listForTeam(teamId)).map((row) => row.email)).toEqual([ada, bob]);
    expect(await store().invitations.listForTeam(teamId + 100_000)).toEqual([]);
  });

  it("finds an e-mail's invitations in every team, oldest first, with the team's name", async () => {
    const first = await teamWithDeveloper(store());
    const second = await teamWithDeveloper(store());
    const ada = email();
    const a = (await store().invitations.insert({ teamId: first.teamId, email: ada, invitedBy: first.userId }))!;
    const b = (await store().invitations.insert({ teamId: second.teamId, email: ada, invitedBy: null }))!;
    const names = [(await store().teams.find(first.teamId))!.name, (await store().teams.find(second.teamId))!.name];
    expect(await store().invitations.listForEmail(ada)).toEqual([
      { id: a.id, teamId: first.teamId, teamName: names[0], createdAt: a.createdAt },
      { id: b.id, teamId: second.teamId, teamName: names[1], createdAt: b.createdAt },
    ]);
    expect(await store().invitations.listForEmail(email())).toEqual([]);
  });

  it("withdraws a team's own invitation only", async () => {
    const { teamId, userId } = await teamWithDeveloper(store());
    const other = await teamWithDeveloper(store());
    const made = (await store().invitations.insert({ teamId, email: email(), invitedBy: userId }))!;
    expect(await store().invitations.delete(other.teamId, made.id)).toBe(false);
    expect(await store().invitations.delete(teamId, made.id)).toBe(true);
    expect(await store().invitations.delete(teamId, made.id)).toBe(false);
    expect(await store().invitations.listForTeam(teamId)).toEqual([]);
  });

  it("hands an invitation to its own e-mail once, even to two requests at once", async () => {
    const { teamId, userId } = await teamWithDeveloper(store());
    const ada = email();
    const made = (await store().invitations.insert({ teamId, email: ada, invitedBy: userId }))!;
    expect(await store().invitations.takeFor(email(), made.id)).toBeNull();
    const taken = await Promise.all([store().invitations.takeFor(ada, made.id), store().invitations.takeFor(ada, made.id)]);
    expect(taken.filter((row) => row !== null)).toEqual([made]);
    expect(await store().invitations.listForEmail(ada)).toEqual([]);
  });

  it("goes with its team, and outlives the developer who sent it", async () => {
    const { teamId, userId } = await teamWithDeveloper(store());
    const kept = await teamWithDeveloper(store());
    const ada = email();
    await store().invitations.insert({ teamId, email: ada, invitedBy: userId });
    const survivor = (await store().invitations.insert({ teamId: kept.teamId, email: ada, invitedBy: kept.userId }))!;
    await store().users.delete(kept.userId);
    await store().transaction(async (tx) => {
      await tx.teams.lock(teamId);
      await tx.teams.delete(teamId);
    });
    expect(await store().invitations.listForEmail(ada)).toEqual([expect.objectContaining({ id: survivor.id, teamId: kept.teamId })]);
    expect(await store().invitations.listForTeam(kept.teamId)).toEqual([{ ...survivor, invitedBy: null }]);
  });
});

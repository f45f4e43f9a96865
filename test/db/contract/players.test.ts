import { expect, it } from "bun:test";
import { isUniqueViolation } from "../../../src/db/errors.ts";
import { contract, player, rejection, sealed, serviceAccount, teamWithDeveloper, unique } from "./harness.ts";

contract("players repository", ({ store }) => {
  it("inserts a player and reads the same row back in its team, by federated hash, and as state", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const values = { teamId, externalId: unique("mia"), federatedIdEnc: sealed("fid"), federatedIdHash: unique("fidhash") };
    const made = await store().players.insert(values);
    expect(made).toEqual({ id: expect.any(Number), ...values, version: 1, createdAt: expect.any(Number), consent: "none", consentUpdatedAt: null });
    expect(Buffer.isBuffer(made.federatedIdEnc)).toBe(true);
    expect(await store().players.findInTeam(teamId, made.id)).toEqual(made);
    expect(await store().players.findByFederatedHash(values.federatedIdHash)).toEqual(made);
    expect(await store().players.state(made.id)).toEqual({ version: 1, teamId });
    expect(await store().players.state(made.id + 100_000)).toBeNull();
    expect(await store().players.findByFederatedHash("nope")).toBeNull();
  });

  it("scopes every read and write to the team", async () => {
    const a = await teamWithDeveloper(store());
    const b = await teamWithDeveloper(store());
    const kid = await player(store(), a.teamId);
    expect(await store().players.findInTeam(b.teamId, kid.id)).toBeNull();
    expect(await store().players.updateExternalId(b.teamId, kid.id, "x")).toBeNull();
    expect(await store().players.replaceFederatedId(b.teamId, kid.id, sealed("x"), unique("x"))).toBeNull();
    expect(await store().players.delete(b.teamId, kid.id)).toBe(false);
    expect(await store().players.findInTeam(a.teamId, kid.id)).toEqual(kid);
  });

  it("refuses a second external id in the same team, allows it in another", async () => {
    const a = await teamWithDeveloper(store());
    const b = await teamWithDeveloper(store());
    const kid = await player(store(), a.teamId);
    expect(isUniqueViolation(await rejection(player(store(), a.teamId, kid.externalId)))).toBe(true);
    expect(await player(store(), b.teamId, kid.externalId)).toMatchObject({ teamId: b.teamId, externalId: kid.externalId });
    const other = await player(store(), a.teamId);
    expect(isUniqueViolation(await rejection(store().players.updateExternalId(a.teamId, other.id, kid.externalId)))).toBe(true);
  });

  it("pages a team's players by id", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await player(store(), teamId));
    const first = await store().players.list(teamId, 0, 2);
    expect(first.map((p) => p.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect(first[0]).toEqual(made[0]!);
    const rest = await store().players.list(teamId, made[1]!.id, 10);
    expect(rest.map((p) => p.id)).toEqual(made.slice(2).map((p) => p.id));
    expect(await store().players.list(teamId, made[4]!.id, 10)).toEqual([]);
    expect(await store().players.list(teamId, 2 ** 40, 10)).toEqual([]);
    expect((await store().players.idsOfTeam(teamId)).sort((x, y) => x - y)).toEqual(made.map((p) => p.id));
  });

  it("edits the external id and replaces the federated id, bumping the version", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const renamed = unique("leo");
    expect(await store().players.updateExternalId(teamId, kid.id, renamed)).toEqual({ ...kid, externalId: renamed });
    const hash = unique("newfid");
    const reset = await store().players.replaceFederatedId(teamId, kid.id, sealed("new"), hash);
    expect(reset).toEqual({ ...kid, externalId: renamed, federatedIdEnc: sealed("new"), federatedIdHash: hash, version: 2 });
    expect(await store().players.findByFederatedHash(kid.federatedIdHash)).toBeNull();
  });

  it("answers the player token state with the logging-in service account's team", async () => {
    const a = await teamWithDeveloper(store());
    const b = await teamWithDeveloper(store());
    const kid = await player(store(), a.teamId);
    const own = await serviceAccount(store(), a.teamId);
    const foreign = await serviceAccount(store(), b.teamId);
    expect(await store().players.tokenState(kid.id, own.id)).toEqual({ version: 1, teamId: a.teamId, serviceAccountTeamId: a.teamId });
    expect(await store().players.tokenState(kid.id, foreign.id)).toEqual({ version: 1, teamId: a.teamId, serviceAccountTeamId: b.teamId });
    expect(await store().players.tokenState(kid.id, own.id + 100_000)).toEqual({ version: 1, teamId: a.teamId, serviceAccountTeamId: null });
    expect(await store().players.tokenState(kid.id + 100_000, own.id)).toBeNull();
  });

  it("deletes a player of the team, once", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    expect(await store().players.delete(teamId, kid.id)).toBe(true);
    expect(await store().players.delete(teamId, kid.id)).toBe(false);
    expect(await store().players.findInTeam(teamId, kid.id)).toBeNull();
  });

  it("sets consent within the team and answers it with the team's require_consent", async () => {
    const a = await teamWithDeveloper(store());
    const b = await teamWithDeveloper(store());
    const kid = await player(store(), a.teamId);
    expect(await store().players.consentState(kid.id)).toEqual({ consent: "none", requireConsent: false });
    const at = 1_790_000_000_123;
    expect(await store().players.setConsent(b.teamId, kid.id, "granted", at)).toBeNull();
    const granted = await store().players.setConsent(a.teamId, kid.id, "granted", at);
    expect(granted).toEqual({ ...kid, consent: "granted", consentUpdatedAt: at });
    expect(await store().players.findInTeam(a.teamId, kid.id)).toEqual(granted);
    await store().teams.setRequireConsent(a.teamId, true);
    expect(await store().players.consentState(kid.id)).toEqual({ consent: "granted", requireConsent: true });
    await store().players.setConsent(a.teamId, kid.id, "none", at + 1);
    expect(await store().players.consentState(kid.id)).toEqual({ consent: "none", requireConsent: true });
    expect(await store().players.consentState(kid.id + 100_000)).toBeNull();
    expect(await store().players.consentState(2 ** 40)).toBeNull();
  });
});

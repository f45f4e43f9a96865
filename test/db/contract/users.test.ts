import { expect, it } from "bun:test";
import { isUniqueViolation } from "../../../src/db/errors.ts";
import { contract, rejection, sealed, teamWithDeveloper, unique } from "./harness.ts";

contract("users repository", ({ store }) => {
  const newUser = () => {
    const name = unique("ada");
    return { name, email: `${name}@example.com`, apiKeyEnc: sealed(name), apiKeyHash: unique("hash") };
  };

  it("inserts a user and reads the same row back by id, e-mail and key hash", async () => {
    const values = newUser();
    const made = await store().users.insert(values);
    expect(made).toEqual({ id: expect.any(Number), ...values, keyVersion: 1, createdAt: expect.any(Number) });
    expect(Buffer.isBuffer(made.apiKeyEnc)).toBe(true);
    expect(Math.abs(made.createdAt - Date.now())).toBeLessThan(60_000);
    expect(await store().users.get(made.id)).toEqual(made);
    expect(await store().users.findByEmail(values.email)).toEqual(made);
    expect(await store().users.findByKeyHash(values.apiKeyHash)).toEqual(made);
    expect(await store().users.get(made.id + 100_000)).toBeNull();
    expect(await store().users.findByEmail("nobody@example.com")).toBeNull();
    expect(await store().users.findByKeyHash("no-such-hash")).toBeNull();
  });

  it("refuses a second user with the same e-mail or key hash (a unique violation, nothing written)", async () => {
    const values = newUser();
    await store().users.insert(values);
    const before = (await store().users.list()).length;
    expect(isUniqueViolation(await rejection(store().users.insert({ ...newUser(), email: values.email })))).toBe(true);
    expect(isUniqueViolation(await rejection(store().users.insert({ ...newUser(), apiKeyHash: values.apiKeyHash })))).toBe(true);
    expect((await store().users.list()).length).toBe(before);
  });

  it("lists users oldest first", async () => {
    const a = await store().users.insert(newUser());
    const b = await store().users.insert(newUser());
    const ids = (await store().users.list()).map((u) => u.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
  });

  it("renames, and says null for a user that is not there", async () => {
    const made = await store().users.insert(newUser());
    expect(await store().users.rename(made.id, "Grace")).toEqual({ ...made, name: "Grace" });
    expect(await store().users.rename(made.id + 100_000, "Nobody")).toBeNull();
  });

  it("replaces the key, bumping its version; the old hash no longer finds the user", async () => {
    const values = newUser();
    const made = await store().users.insert(values);
    const replaced = await store().users.replaceKey(made.id, sealed("new"), "new-hash-" + made.id);
    expect(replaced).toMatchObject({ id: made.id, keyVersion: 2, apiKeyHash: "new-hash-" + made.id });
    expect(replaced!.apiKeyEnc).toEqual(sealed("new"));
    expect(await store().users.keyVersion(made.id)).toBe(2);
    expect(await store().users.findByKeyHash(values.apiKeyHash)).toBeNull();
    expect(await store().users.replaceKey(made.id + 100_000, sealed("x"), "x")).toBeNull();
  });

  it("answers the token state (key version and membership) in one call", async () => {
    const { teamId, userId } = await teamWithDeveloper(store());
    const otherTeam = await store().teams.insert(unique("other"));
    expect(await store().users.tokenState(userId, teamId)).toEqual({ keyVersion: 1, member: true });
    expect(await store().users.tokenState(userId, otherTeam.id)).toEqual({ keyVersion: 1, member: false });
    expect(await store().users.tokenState(userId + 100_000, teamId)).toBeNull();
    expect(await store().users.keyVersion(userId + 100_000)).toBeNull();
  });

  it("deletes a user with their memberships; a second delete says false", async () => {
    const { teamId, userId } = await teamWithDeveloper(store());
    expect(await store().users.delete(userId)).toBe(true);
    expect(await store().users.get(userId)).toBeNull();
    expect(await store().teams.isMember(userId, teamId)).toBe(false);
    expect(await store().users.delete(userId)).toBe(false);
  });

  it("locks a developer's row until the transaction ends: a second transaction locking it waits for the first", async () => {
    const { userId } = await teamWithDeveloper(store());
    const order: string[] = [];
    let locked!: () => void;
    const firstHasLock = new Promise<void>((resolve) => (locked = resolve));
    const first = store().transaction(async (tx) => {
      expect(await tx.users.lock(userId)).toMatchObject({ id: userId });
      locked();
      await Bun.sleep(150);
      order.push("first ends");
    });
    await firstHasLock;
    const second = store().transaction(async (tx) => {
      await tx.users.lock(userId);
      order.push("second locked");
    });
    await Promise.all([first, second]);
    expect(order).toEqual(["first ends", "second locked"]);
    expect(await store().transaction((tx) => tx.users.lock(userId + 100_000))).toBeNull();
  });
});

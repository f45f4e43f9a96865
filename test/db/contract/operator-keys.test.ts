import { expect, it } from "bun:test";
import { isUniqueViolation } from "../../../src/db/errors.ts";
import { contract, rejection, unique } from "./harness.ts";

contract("operator keys repository", ({ store }) => {
  it("inserts a key by its hash and finds it by hash, id and name", async () => {
    const name = unique("ops");
    const made = await store().operatorKeys.insert({ name, keyHash: unique("op") });
    expect(made).toEqual({ id: expect.any(Number), name, keyHash: made.keyHash, version: 1, createdAt: expect.any(Number) });
    expect(await store().operatorKeys.byKeyHash(made.keyHash)).toEqual({ id: made.id, version: 1 });
    expect(await store().operatorKeys.version(made.id)).toBe(1);
    expect(await store().operatorKeys.findByName(name)).toEqual(made);
    expect(await store().operatorKeys.byKeyHash("nope")).toBeNull();
    expect(await store().operatorKeys.findByName(unique("none"))).toBeNull();
    expect(isUniqueViolation(await rejection(store().operatorKeys.insert({ name, keyHash: unique("op") })))).toBe(true);
  });

  it("replaces a key, bumping its version, and deletes it", async () => {
    const name = unique("ops");
    const made = await store().operatorKeys.insert({ name, keyHash: unique("op") });
    const hash = unique("op2");
    expect(await store().operatorKeys.replace(name, hash)).toEqual({ ...made, keyHash: hash, version: 2 });
    expect(await store().operatorKeys.byKeyHash(made.keyHash)).toBeNull();
    expect(await store().operatorKeys.replace(unique("none"), "x")).toBeNull();
    expect(await store().operatorKeys.delete(name)).toBe(true);
    expect(await store().operatorKeys.delete(name)).toBe(false);
    expect(await store().operatorKeys.version(made.id)).toBeNull();
  });
});

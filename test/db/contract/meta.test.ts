import { expect, it } from "bun:test";
import { contract, player, sealed, teamWithDeveloper } from "./harness.ts";

contract("deployment facts (meta) repository", ({ store }) => {
  it("stores the key check value once and never replaces it", async () => {
    expect(await store().meta.readKeyCheck()).toBeNull();
    await store().meta.writeKeyCheck("first");
    await store().meta.writeKeyCheck("second");
    expect(await store().meta.readKeyCheck()).toBe("first");
  });

  it("samples one stored ciphertext, or null when nothing encrypted is stored", async () => {
    // A fresh database per suite: nothing encrypted yet. (Test order within a suite is the file's order.)
    expect(await store().meta.sampleCiphertext()).toBeNull();
    const { teamId } = await teamWithDeveloper(store());
    await player(store(), teamId);
    const sample = await store().meta.sampleCiphertext();
    expect(sample).not.toBeNull();
    expect(Buffer.from(sample!).subarray(0, 3).toString("hex")).toBe(sealed("").subarray(0, 3).toString("hex"));
  });
});

/**
 * The store's transactions on both databases: all or nothing, savepoints, callbacks after the commit, and
 * (what the SQLite store must add, sharing one connection) no other request's statement mixed into an open
 * transaction.
 */
import { expect, it } from "bun:test";
import { isUniqueViolation } from "../../../src/db/errors.ts";
import { contract, rejection, unique } from "./harness.ts";

contract("store transactions", ({ store, backend }) => {
  it("commits every write of the work, and returns its result", async () => {
    const a = unique("tx");
    const b = unique("tx");
    const result = await store().transaction(async (tx) => {
      await tx.teams.insert(a);
      await tx.teams.insert(b);
      return "done";
    });
    expect(result).toBe("done");
    expect(await store().teams.findByName(a)).not.toBeNull();
    expect(await store().teams.findByName(b)).not.toBeNull();
  });

  it("rolls every write back when the work throws, and rethrows its error", async () => {
    const a = unique("tx");
    const error = await rejection(
      store().transaction(async (tx) => {
        await tx.teams.insert(a);
        throw new Error("changed my mind");
      }),
    );
    expect((error as Error).message).toBe("changed my mind");
    expect(await store().teams.findByName(a)).toBeNull();
  });

  it("rolls back only a failed savepoint; the outer transaction carries on (even after a unique violation)", async () => {
    const kept = unique("kept");
    const dropped = unique("dropped");
    await store().transaction(async (tx) => {
      await tx.teams.insert(kept);
      const error = await rejection(
        tx.transaction(async (inner) => {
          await inner.teams.insert(dropped);
          await inner.teams.insert(kept);
        }),
      );
      expect(isUniqueViolation(error)).toBe(true);
      // PostgreSQL would refuse every statement of an aborted transaction: the savepoint kept it usable.
      expect(await tx.teams.findByName(dropped)).toBeNull();
    });
    expect(await store().teams.findByName(kept)).not.toBeNull();
    expect(await store().teams.findByName(dropped)).toBeNull();
  });

  it("nests savepoints inside savepoints", async () => {
    const names = [unique("l1"), unique("l2"), unique("l3")];
    await store().transaction(async (tx) => {
      await tx.teams.insert(names[0]!);
      await tx.transaction(async (two) => {
        await two.teams.insert(names[1]!);
        await rejection(
          two.transaction(async (three) => {
            await three.teams.insert(names[2]!);
            throw new Error("only this level");
          }),
        );
      });
    });
    expect(await store().teams.findByName(names[0]!)).not.toBeNull();
    expect(await store().teams.findByName(names[1]!)).not.toBeNull();
    expect(await store().teams.findByName(names[2]!)).toBeNull();
  });

  it("runs afterCommit callbacks after the commit, drops them on a rollback, and runs them at once outside a transaction", async () => {
    const seen: string[] = [];
    const name = unique("cb");
    await store().transaction(async (tx) => {
      await tx.teams.insert(name);
      tx.afterCommit(() => seen.push("outer"));
      await tx.transaction(async (inner) => inner.afterCommit(() => seen.push("savepoint")));
      await rejection(
        tx.transaction(async (inner) => {
          inner.afterCommit(() => seen.push("rolled back"));
          throw new Error("no");
        }),
      );
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(["outer", "savepoint"]);
    await rejection(
      store().transaction(async (tx) => {
        tx.afterCommit(() => seen.push("never"));
        throw new Error("no");
      }),
    );
    store().afterCommit(() => seen.push("now"));
    expect(seen).toEqual(["outer", "savepoint", "now"]);
  });

  it("keeps a concurrent request's statements out of an open transaction (its write survives the rollback; it never sees uncommitted rows)", async () => {
    const insideName = unique("inside");
    const outsideName = unique("outside");
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const tx = store().transaction(async (t) => {
      await t.teams.insert(insideName);
      entered();
      await paused;
      throw new Error("roll it back");
    });
    await inside;
    // Another request while the transaction is open: it must not see the uncommitted team, and its own write
    // must not be undone by the rollback.
    const seen = store().teams.findByName(insideName);
    const written = store().teams.insert(outsideName);
    if (backend === "postgres") {
      // PostgreSQL isolates the two connections: both answer while the transaction is still open.
      expect(await seen).toBeNull();
      await written;
    }
    release();
    await rejection(tx);
    expect(await seen).toBeNull();
    expect(await written).toMatchObject({ name: outsideName });
    expect(await store().teams.findByName(outsideName)).not.toBeNull();
    expect(await store().teams.findByName(insideName)).toBeNull();
  });

  it("runs concurrent transactions without losing either's writes", async () => {
    const names = Array.from({ length: 6 }, () => unique("concurrent"));
    await Promise.all(
      names.map((name) =>
        store().transaction(async (tx) => {
          await tx.teams.insert(name);
          await Bun.sleep(1);
          return tx.teams.findByName(name);
        }),
      ),
    );
    for (const name of names) expect(await store().teams.findByName(name)).not.toBeNull();
  });
});

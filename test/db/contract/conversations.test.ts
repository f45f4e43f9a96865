import { expect, it } from "bun:test";
import { rawSql } from "../../helpers/database.ts";
import { contract, player, rejection, sealed, teamWithDeveloper } from "./harness.ts";

contract("conversations repository", ({ store, database }) => {
  it("appends sealed messages and reads the newest first, up to a limit", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    await store().conversations.append(kid.id, [
      { role: "user", sealed: sealed("one") },
      { role: "assistant", sealed: sealed("two") },
    ]);
    await store().conversations.append(kid.id, [{ role: "user", sealed: sealed("three") }]);
    await store().conversations.append(kid.id, []);
    const rows = await store().conversations.newest(kid.id, 2);
    expect(rows.map((r) => [r.role, r.text, Buffer.from(r.sealed!).toString("latin1")])).toEqual([
      ["user", "", sealed("three").toString("latin1")],
      ["assistant", "", sealed("two").toString("latin1")],
    ]);
    expect(typeof rows[0]!.id).toBe("number");
    expect(rows[0]!.id).toBeGreaterThan(rows[1]!.id);
    expect(await store().conversations.newest(kid.id + 100_000, 10)).toEqual([]);
  });

  it("replaces or deletes one message of a player only when it has the role asked for", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const other = await player(store(), teamId);
    await store().conversations.append(kid.id, [
      { role: "assistant", sealed: sealed("older reply") },
      { role: "user", sealed: sealed("hi") },
      { role: "assistant", sealed: sealed("a long reply") },
    ]);
    await store().conversations.append(other.id, [{ role: "assistant", sealed: sealed("theirs") }]);
    const texts = async (id: number) => (await store().conversations.newest(id, 10)).map((r) => [r.role, Buffer.from(r.sealed!).toString("latin1")]);
    const [reply, hi, older] = await store().conversations.newest(kid.id, 3);
    const [theirs] = await store().conversations.newest(other.id, 1);
    expect(await store().conversations.replaceMessage(kid.id, reply!.id, "assistant", sealed("a long"))).toBe(true);
    expect(await texts(kid.id)).toEqual([
      ["assistant", sealed("a long").toString("latin1")],
      ["user", sealed("hi").toString("latin1")],
      ["assistant", sealed("older reply").toString("latin1")],
    ]);
    // Another role, another player's message, or a message that is gone: nothing changes.
    expect(await store().conversations.replaceMessage(kid.id, hi!.id, "assistant", sealed("x"))).toBe(false);
    expect(await store().conversations.replaceMessage(kid.id, theirs!.id, "assistant", null)).toBe(false);
    expect(await store().conversations.replaceMessage(kid.id, older!.id, "assistant", null)).toBe(true);
    expect(await store().conversations.replaceMessage(kid.id, older!.id, "assistant", null)).toBe(false);
    expect((await texts(kid.id)).map(([role]) => role)).toEqual(["assistant", "user"]);
    expect(await texts(other.id)).toEqual([["assistant", sealed("theirs").toString("latin1")]]);
  });

  it("reads one player's rows oldest first in batches after a cursor, with when each was written", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const other = await player(store(), teamId);
    await store().conversations.append(kid.id, [
      { role: "user", sealed: sealed("one") },
      { role: "assistant", sealed: sealed("two") },
    ]);
    await store().conversations.append(other.id, [{ role: "user", sealed: sealed("not mine") }]);
    await store().conversations.append(kid.id, [{ role: "user", sealed: sealed("three") }]);
    const words = (rows: { sealed: Uint8Array | null }[]) => rows.map((r) => Buffer.from(r.sealed!).toString("latin1"));
    const rows = await store().conversations.ofPlayer(kid.id, 0, 10);
    expect(rows.map((r) => r.role)).toEqual(["user", "assistant", "user"]);
    expect(words(rows)).toEqual(["one", "two", "three"].map((w) => sealed(w).toString("latin1")));
    expect(typeof rows[0]!.id).toBe("number");
    expect(typeof rows[0]!.createdAt).toBe("number");
    expect(Math.abs(rows[0]!.createdAt - Date.now())).toBeLessThan(3_600_000);
    const first = await store().conversations.ofPlayer(kid.id, 0, 2);
    expect(words(first)).toEqual(words(rows.slice(0, 2)));
    const next = await store().conversations.ofPlayer(kid.id, first[1]!.id, 2);
    expect(words(next)).toEqual([sealed("three").toString("latin1")]);
    expect(await store().conversations.ofPlayer(kid.id, next[0]!.id, 2)).toEqual([]);
    expect(await store().conversations.ofPlayer(kid.id + 100_000, 0, 10)).toEqual([]);
  });

  it("names the players and teams with messages older than a cutoff", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    await store().conversations.append(kid.id, [{ role: "user", sealed: sealed("old") }]);
    const later = Date.now() + 60_000;
    expect((await store().conversations.playersBefore(later)).filter((p) => p.teamId === teamId)).toEqual([{ playerId: kid.id, teamId }]);
    expect((await store().conversations.playersBefore(0)).filter((p) => p.teamId === teamId)).toEqual([]);
  });

  it("appends all of a turn or none of it", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    // The second message cannot be written (a value neither driver can bind): the first must not stay behind.
    const unbindable = (() => 0) as unknown as Buffer;
    await rejection(
      store().conversations.append(kid.id, [
        { role: "user", sealed: sealed("first") },
        { role: "assistant", sealed: unbindable },
      ]),
    );
    expect(await store().conversations.newest(kid.id, 10)).toEqual([]);
    // A player who is not there: nothing is written either.
    await rejection(store().conversations.append(kid.id + 100_000, [{ role: "user", sealed: sealed("orphan") }]));
    expect(await rawSql(database(), "SELECT id FROM conversation_messages WHERE player_id = ?", kid.id + 100_000)).toEqual([]);
  });

  it("deletes a player's messages, and messages older than a cutoff with their count", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const other = await player(store(), teamId);
    await store().conversations.append(kid.id, [{ role: "user", sealed: sealed("a") }]);
    await store().conversations.append(other.id, [{ role: "user", sealed: sealed("b") }]);
    await store().conversations.deleteOfPlayer(kid.id);
    expect(await store().conversations.newest(kid.id, 10)).toEqual([]);
    expect(await store().conversations.newest(other.id, 10)).toHaveLength(1);
    await rawSql(
      database(),
      "INSERT INTO conversation_messages (player_id, role, text, text_enc, created_at) VALUES (?, 'user', '', ?, ?)",
      other.id,
      sealed("old"),
      Date.now() - 40 * 86_400_000,
    );
    expect(await store().conversations.deleteBefore(Date.now() - 30 * 86_400_000)).toBe(1);
    expect(await store().conversations.deleteBefore(Date.now() - 30 * 86_400_000)).toBe(0);
    expect(await store().conversations.newest(other.id, 10)).toHaveLength(1);
  });

  it("finds rows still in plain text and seals them in place", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    await rawSql(database(), "INSERT INTO conversation_messages (player_id, role, text) VALUES (?, 'user', 'plain words')", kid.id);
    await rawSql(database(), "INSERT INTO conversation_messages (player_id, role, text) VALUES (?, 'assistant', 'plain reply')", kid.id);
    const plain = await store().conversations.plainRows(10);
    const mine = plain.filter((r) => r.playerId === kid.id);
    expect(mine.map((r) => [r.role, r.text])).toEqual([
      ["user", "plain words"],
      ["assistant", "plain reply"],
    ]);
    await store().conversations.seal(mine.map((r) => ({ id: r.id, sealed: sealed(`sealed-${r.id}`) })));
    await store().conversations.seal([]);
    expect((await store().conversations.plainRows(10)).filter((r) => r.playerId === kid.id)).toEqual([]);
    const rows = await store().conversations.newest(kid.id, 10);
    expect(rows.map((r) => [r.text, Buffer.from(r.sealed!).toString("latin1")])).toEqual(
      mine.reverse().map((r) => ["", sealed(`sealed-${r.id}`).toString("latin1")]),
    );
  });
});

/**
 * A session's history remembers the rows it has decrypted (conversations/service.ts, `OpenedRows`): a row is
 * decrypted once per session instead of once per turn, and the history a turn gets is exactly what a fresh
 * load gives, whatever happened to the rows in between (new turns, a tampered or relabelled row, deletions).
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { TextCipher } from "../../src/conversations/cipher.ts";
import { loadHistory, type OpenedRows, recordTurn } from "../../src/conversations/service.ts";
import { rawSql } from "../helpers/database.ts";
import { createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let team: TeamFixture;

beforeAll(async () => {
  server = await startTestServer();
  team = await createTeamFixture(server);
});
afterAll(() => server.close());

/** The server's own cipher, counting how many rows it decrypted. */
function counting(cipher: TextCipher) {
  const counted = { opens: 0 };
  return {
    counted,
    cipher: {
      seal: (text, playerId, role) => cipher.seal(text, playerId, role),
      open: (sealed, playerId, role) => (counted.opens++, cipher.open(sealed, playerId, role)),
    } satisfies TextCipher,
  };
}

describe("rows a session has opened", () => {
  it("decrypts each stored row once per session, and every load equals a fresh one", async () => {
    const player = await createPlayer(server, team);
    const { cipher, counted } = counting(server.deps.textCipher);
    const deps = { store: server.deps.store, textCipher: cipher };
    const opened: OpenedRows = new Map();
    for (let turn = 1; turn <= 5; turn++) {
      await recordTurn(deps, player.pk, `question ${turn}`, `answer ${turn}`);
      const before = counted.opens;
      const remembered = await loadHistory(deps, player.pk, 10_000, opened);
      // Only this turn's two new rows were decrypted.
      expect(counted.opens - before).toBe(2);
      expect(remembered).toEqual(await loadHistory(server.deps, player.pk, 10_000));
      expect(remembered).toHaveLength(turn * 2);
    }
    expect(opened.size).toBe(10);
  });

  it("opens a row again when its stored bytes or its role changed, so a tampered or relabelled row is left out", async () => {
    const player = await createPlayer(server, team);
    const deps = { store: server.deps.store, textCipher: server.deps.textCipher };
    await recordTurn(deps, player.pk, "my cat is called Pip", "What a lovely name!");
    await recordTurn(deps, player.pk, "she is grey", "Grey cats are soft.");
    const opened: OpenedRows = new Map();
    expect(await loadHistory(deps, player.pk, 10_000, opened)).toHaveLength(4);

    const [first, second] = await rawSql(server.deps.database, "SELECT id FROM conversation_messages WHERE player_id = ? ORDER BY id", player.pk);
    // The first row's bytes with one bit flipped: it no longer opens.
    const [row] = await rawSql(server.deps.database, "SELECT text_enc AS sealed FROM conversation_messages WHERE id = ?", first!.id);
    const flipped = Buffer.from(row!.sealed);
    flipped[flipped.length - 1]! ^= 1;
    await rawSql(server.deps.database, "UPDATE conversation_messages SET text_enc = ? WHERE id = ?", flipped, first!.id);
    // The second row relabelled from assistant to user: its authenticated role no longer matches.
    await rawSql(server.deps.database, "UPDATE conversation_messages SET role = 'user' WHERE id = ?", second!.id);

    const fresh = await loadHistory(deps, player.pk, 10_000);
    expect(fresh).toEqual([
      { role: "user", text: "she is grey" },
      { role: "assistant", text: "Grey cats are soft." },
    ]);
    expect(await loadHistory(deps, player.pk, 10_000, opened)).toEqual(fresh);
  });

  it("forgets rows that were deleted", async () => {
    const player = await createPlayer(server, team);
    const deps = { store: server.deps.store, textCipher: server.deps.textCipher };
    await recordTurn(deps, player.pk, "one", "uno");
    const opened: OpenedRows = new Map();
    expect(await loadHistory(deps, player.pk, 10_000, opened)).toHaveLength(2);
    await rawSql(server.deps.database, "DELETE FROM conversation_messages WHERE player_id = ?", player.pk);
    expect(await loadHistory(deps, player.pk, 10_000, opened)).toEqual([]);
    expect(opened.size).toBe(0);
  });

  it("opens nothing for another player from rows opened for the first (a row moved between players stays shut)", async () => {
    const first = await createPlayer(server, team);
    const second = await createPlayer(server, team);
    const deps = { store: server.deps.store, textCipher: server.deps.textCipher };
    await recordTurn(deps, first.pk, "my secret is blue", "I will keep it.");
    const opened: OpenedRows = new Map();
    expect(await loadHistory(deps, first.pk, 10_000, opened)).toHaveLength(2);
    await rawSql(server.deps.database, "UPDATE conversation_messages SET player_id = ? WHERE player_id = ?", second.pk, first.pk);
    expect(await loadHistory(deps, second.pk, 10_000)).toEqual([]);
    expect(await loadHistory(deps, second.pk, 10_000, opened)).toEqual([]);
  });
});
